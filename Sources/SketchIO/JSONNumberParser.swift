#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts one JSON number token to the nearest `Double`, as a correct JSON reader does.
///
/// Integers and short decimals take Clinger's exact fast path (a mantissa below 2^53 scaled by
/// an exactly representable power of ten, one correctly rounded multiply or divide); anything
/// else goes to the C library's `strtod`, which rounds correctly. The token must already match
/// the JSON number grammar; `JSONNumberScanner` checks that.
enum JSONNumberParser {
    /// Powers of ten that are exact in binary64.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Exactly-rounded value of `mantissa × 10^exponent` when the fast path applies, else nil.
    @inline(__always)
    static func fastPath(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        if exponent < 0 {
            value /= exactPowersOfTen[-exponent]
        } else if exponent > 0 {
            value *= exactPowersOfTen[exponent]
        }
        return negative ? -value : value
    }

    /// Correctly rounded conversion of an arbitrary JSON number token via `strtod`.
    static func slowPath(_ token: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { text in
            for index in 0..<token.count { text[index] = CChar(bitPattern: token[index]) }
            text[token.count] = 0
            return strtod(text.baseAddress!, nil)
        }
    }
}
