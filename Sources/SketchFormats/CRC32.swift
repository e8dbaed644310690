import CDeflate

/// CRC-32 (the ISO-HDLC polynomial of zip, gzip and PNG) of bytes, by libdeflate: its
/// carry-less-multiply code folds 8.5 bytes a cycle where zlib's table code (`crc32`) reads about
/// one, so every writer and reader of a zip entry or PNG chunk checks its bytes here. Its CRC of
/// bytes joined is what ``CRC32Combiner`` makes of the parts' CRCs.
package enum CRC32 {
    /// The CRC-32 of `bytes`, continuing `crc` (the CRC of the bytes before them; 0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        // libdeflate reads a null buffer as a request for the initial value, whatever `crc` is.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return libdeflate_crc32(crc, base, bytes.count)
    }

    /// The CRC-32 of `bytes`, continuing `crc`.
    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
