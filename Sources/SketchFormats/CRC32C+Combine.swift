extension CRC32C {
    /// The CRC-32C of the concatenation `a ‖ b` from `crcA` (of `a`), `crcB` (of `b`) and
    /// `lengthB` (bytes of `b`), in O(log lengthB) steps without reading either (zlib's
    /// `crc32_combine` over the Castagnoli polynomial): the reduce side frames a record whose
    /// body was hashed on the map side without hashing the body again.
    public static func combine(_ crcA: UInt32, _ crcB: UInt32, lengthB: Int) -> UInt32 {
        multiply(powerOfX(eightTimes: lengthB), crcA) ^ crcB
    }

    /// Reflected polynomial multiplication modulo the CRC polynomial.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var m: UInt32 = 1 << 31
        var p: UInt32 = 0
        var b = b
        while true {
            if a & m != 0 {
                p ^= b
                if a & (m &- 1) == 0 { break }
            }
            m >>= 1
            b = b & 1 != 0 ? (b >> 1) ^ 0x82F6_3B78 : b >> 1
        }
        return p
    }

    /// x^(2^k) modulo the polynomial for k = 0…31 (reflected).
    private static let powersOfTwo: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 32)
        var p: UInt32 = 1 << 30  // x^1
        for k in 0..<32 {
            table[k] = p
            p = multiply(p, p)
        }
        return table
    }()

    /// x^(8 n) modulo the polynomial: shifting a CRC over n zero bytes.
    private static func powerOfX(eightTimes n: Int) -> UInt32 {
        var p: UInt32 = 1 << 31  // x^0
        var k = 3
        var n = UInt(max(n, 0))
        while n != 0 {
            if n & 1 != 0 { p = multiply(powersOfTwo[k & 31], p) }
            n >>= 1
            k += 1
        }
        return p
    }
}
