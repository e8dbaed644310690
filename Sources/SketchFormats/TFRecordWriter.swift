import SketchIO

/// Writes a TFRecord file (atomically: nothing appears at the path before ``commit()``).
///
/// Each record is framed as TensorFlow's `RecordWriter` does: `uint64 length` (little-endian),
/// `uint32 masked_crc32c(length bytes)`, the data, `uint32 masked_crc32c(data)`; no compression.
public final class TFRecordWriter {
    /// Records written so far.
    public private(set) var count = 0
    private let file: AtomicFileWriter

    /// Starts writing `path`.
    public init(path: String) throws {
        file = try AtomicFileWriter(path: path)
    }

    /// Appends one record (usually a serialized ``TFExample``).
    public func write(record: [UInt8]) throws {
        try file.write(Self.frame(record))
        count += 1
    }

    /// Moves the finished file into place.
    public func commit() throws {
        try file.commit()
    }

    /// The framed bytes of one record.
    public static func frame(_ record: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(record.count + 16)
        let length = UInt64(record.count)
        var lengthBytes: [UInt8] = []
        for i in 0..<8 { lengthBytes.append(UInt8((length >> UInt64(8 * i)) & 0xFF)) }
        out.append(contentsOf: lengthBytes)
        appendLittleEndian(CRC32C.masked(CRC32C.checksum(lengthBytes)), to: &out)
        out.append(contentsOf: record)
        appendLittleEndian(CRC32C.masked(CRC32C.checksum(record)), to: &out)
        return out
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        for i in 0..<4 { out.append(UInt8((value >> UInt32(8 * i)) & 0xFF)) }
    }
}
