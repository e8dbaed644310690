/// Lower-case hexadecimal, the one way bytes are written as hex digits: SHA-256 digests, the
/// `record_hex` of a quarantined `.bin` record, JSON's `\u00XX` escapes and the `\xNN` of a path
/// that is not UTF-8.
package enum HexDigits {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Appends the two lower-case hex digits of `byte` to `out`.
    @inline(__always)
    package static func append(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
}
