import CZlib

/// Joins the CRC-32s (zip's) of concatenated pieces like zlib's `crc32_combine`, with the
/// operator for each piece length made once (`crc32_combine_gen`) and then applied by
/// `crc32_combine_op`: a `.npz` entry combines one fragment CRC per array, and its arrays come in
/// a few hundred lengths, so the per-array cost is one multiplication modulo the polynomial
/// instead of `crc32_combine`'s squaring chain (7 % of a sketch-rnn reducer's samples before).
package struct CRC32Combiner {
    /// Operators by piece length below ``cachedLengths``, `1 << 32 | op` once made (0: not yet).
    private var operators: [UInt64] = []
    /// Lengths whose operators are kept; a longer piece has its operator made each time.
    static let cachedLengths = 1 << 16

    package init() {}

    /// The CRC-32 of `a ‖ b` from `crcA`, `crcB` and `b`'s `length`.
    package mutating func combine(_ crcA: UInt32, _ crcB: UInt32, length: Int) -> UInt32 {
        let op: uLong
        if length < Self.cachedLengths {
            if length >= operators.count { operators += repeatElement(0, count: length + 1 - operators.count) }
            if operators[length] == 0 { operators[length] = 1 << 32 | UInt64(crc32_combine_gen(off_t(length))) }
            op = uLong(truncatingIfNeeded: operators[length])
        } else {
            op = crc32_combine_gen(off_t(length))
        }
        return UInt32(truncatingIfNeeded: crc32_combine_op(uLong(crcA), uLong(crcB), op & 0xFFFF_FFFF))
    }
}
