import CZlib

/// Raw inflate (no zlib or gzip header) of a whole deflate stream in one call, as zlib does it:
/// the one place the package drives `inflate`. Streams of small blocks, such as the `.npz` entries
/// sketchprep writes, go through ``SmallBlockInflate``, which gives zlib's result or leaves the
/// stream to zlib. Callers judge the result: a `.npz` entry must end with a final block
/// (`ZipArchive`), a stroke-3 fragment must not and must use all its bytes
/// (`DeflateFragmentEncoder.inflate`).
package enum RawInflate {
    /// What zlib makes of the input.
    package struct Result: Equatable {
        /// The inflated bytes (at most the capacity asked for).
        package var bytes: [UInt8]
        /// zlib's status: `Z_STREAM_END` once a final block ended the stream, `Z_OK` or
        /// `Z_BUF_ERROR` when it stopped before one (input used up or output full), an error
        /// status for data zlib rejects.
        package var status: Int32
        /// Input bytes zlib did not consume.
        package var leftover: Int

        /// Whether the stream ended with its final block.
        package var ended: Bool { status == Z_STREAM_END }
        /// Whether zlib accepted the data (ended or not).
        package var isValid: Bool { status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END }
    }

    /// Inflates `deflated` into at most `capacity` bytes; throws `FormatError` only when zlib
    /// cannot be initialised (for a stream ``SmallBlockInflate`` leaves to it).
    package static func inflate(_ deflated: ArraySlice<UInt8>, capacity: Int) throws(FormatError) -> Result {
        if let result = deflated.withUnsafeBufferPointer({ SmallBlockInflate.inflate($0, capacity: capacity) }) { return result }
        return try zlib(deflated, capacity: capacity)
    }

    /// ``inflate(_:capacity:)`` by zlib alone: the streams ``SmallBlockInflate`` leaves to it.
    package static func zlib(_ deflated: ArraySlice<UInt8>, capacity: Int) throws(FormatError) -> Result {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FormatError(.zip, "zlib inflate initialisation failed")
        }
        defer { inflateEnd(&stream) }
        var status = Z_OK
        // Filled by zlib, not zeroed first: only the bytes it wrote are kept.
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { target, initialized in
            status = deflated.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.inflate(&stream, Z_SYNC_FLUSH)
            }
            initialized = Int(stream.total_out)
        }
        return Result(bytes: output, status: status, leftover: Int(stream.avail_in))
    }
}
