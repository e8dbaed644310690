import SketchCore

/// Writes records in the layout of Google's simplified NDJSON files: keys in the order
/// `word, countrycode, timestamp, recognized, key_id, drawing`, no spaces, strokes as
/// `[[x...],[y...]]` with integer coordinates, one record per line. Writes go through an
/// `AtomicFileWriter`, so the file appears only on `commit()`.
public final class SimplifiedNDJSONWriter {
    private let file: AtomicFileWriter
    private var line: [UInt8] = []
    /// Records written so far.
    public private(set) var count = 0
    /// Bytes written so far.
    public var bytesWritten: Int { file.bytesWritten }

    /// Opens `path` for writing (atomically).
    public init(path: String) throws {
        file = try AtomicFileWriter(path: path)
        line.reserveCapacity(1 << 16)
    }

    /// Appends one record. Coordinates are written as integers, rounding half to even any that
    /// are not integral (they must be finite and within `Int`'s range); timestamps (`t`) are not
    /// written.
    public func write(_ record: SketchRecord) throws {
        line.removeAll(keepingCapacity: true)
        Self.encode(record, into: &line)
        line.append(0x0A)
        try file.write(line)
        count += 1
    }

    /// Flushes and moves the file into place.
    public func commit() throws {
        try file.commit()
    }

    /// Appends the JSON text of `record` (without a newline) to `bytes`.
    public static func encode(_ record: SketchRecord, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"word":"#.utf8)
        appendString(record.word, to: &bytes)
        bytes.append(contentsOf: #","countrycode":"#.utf8)
        appendString(record.countryCode, to: &bytes)
        bytes.append(contentsOf: #","timestamp":"#.utf8)
        appendString(record.timestamp, to: &bytes)
        bytes.append(contentsOf: record.recognized ? #","recognized":true,"key_id":"#.utf8
                                                   : #","recognized":false,"key_id":"#.utf8)
        appendString(record.keyID, to: &bytes)
        bytes.append(contentsOf: #","drawing":["#.utf8)
        for (index, stroke) in record.drawing.strokes.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            appendIntegers(stroke.x, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            appendIntegers(stroke.y, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(contentsOf: "]}".utf8)
    }

    private static func appendIntegers(_ values: [Double], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            // Simplified coordinates are integral already; truncation is exact for them and
            // avoids a library call per value. Anything else is rounded half to even.
            let truncated = Int(value)
            appendInteger(Double(truncated) == value ? truncated : Int(value.rounded(.toNearestOrEven)), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    @inline(__always)
    private static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            while magnitude > 0 {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\uXXXX`
    /// (or their short forms), everything else as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
