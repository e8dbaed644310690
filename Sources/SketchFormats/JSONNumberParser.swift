#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts one JSON number token to the nearest `Double`, as a correct JSON reader does.
///
/// Integers and short decimals take Clinger's exact fast path (a mantissa below 2^53 scaled by
/// an exactly representable power of ten, one correctly rounded multiply or divide). Decimals
/// with up to 19 significant digits and up to 19 fraction digits (the raw files' 17-digit
/// coordinates such as `33.507999420166016`) take `decimalPath`: a candidate within an ulp, then
/// an exact 128-bit integer check against the neighbouring midpoints. Anything else goes to the
/// C library's `strtod`, which rounds correctly. The token must already match the JSON number
/// grammar; `JSONCursor.parseNumber` checks that.
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

    /// Powers of ten that fit in 64 bits.
    private static let integerPowersOfTen: [UInt64] = (0...19).map { power in
        (0..<power).reduce(UInt64(1)) { value, _ in value * 10 }
    }

    /// Correctly rounded `mantissa / 10^fractionDigits` for 1 ≤ fractionDigits ≤ 19, or nil when
    /// the exact check cannot decide (a halfway case, or outside the checked range).
    ///
    /// With the candidate `d = M·2^e` (M a 53-bit integer), `d` is the correctly rounded value
    /// exactly when `(2M − 1)·2^(e−1) < m/10^k < (2M + 1)·2^(e−1)`, i.e. when
    /// `(2M − 1)·10^k < m·2^(1−e) < (2M + 1)·10^k`; both sides fit in 128 bits for `1 − e ≤ 64`.
    static func decimalPath(mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard fractionDigits >= 1, fractionDigits <= 19 else { return nil }
        let power = integerPowersOfTen[fractionDigits]
        var candidate = Double(mantissa) / Double(power)
        for _ in 0..<3 {
            guard candidate.isNormal else { return nil }
            let significand = candidate.significandBitPattern | (1 << 52)
            let shift = 52 - Int(candidate.exponent) + 1  // 1 − e with e = exponent − 52
            // The lower neighbour of a power of two is closer; leave that case to strtod.
            guard significand != 1 << 52, shift >= 0, shift <= 64 else { return nil }
            let scaled = shiftedLeft(mantissa, by: shift)
            let upper = (2 * significand + 1).multipliedFullWidth(by: power)
            let lower = (2 * significand - 1).multipliedFullWidth(by: power)
            if isLess(scaled, than: (upper.high, upper.low.magnitude)) {
                if isLess((lower.high, lower.low.magnitude), than: scaled) {
                    return negative ? -candidate : candidate
                }
                if scaled == (lower.high, lower.low.magnitude) { return nil }
                candidate = candidate.nextDown
            } else {
                if scaled == (upper.high, upper.low.magnitude) { return nil }
                candidate = candidate.nextUp
            }
        }
        return nil
    }

    /// `value · 2^shift` as (high, low) 64-bit words, for 0 ≤ shift ≤ 64.
    @inline(__always)
    private static func shiftedLeft(_ value: UInt64, by shift: Int) -> (UInt64, UInt64) {
        switch shift {
        case 0: (0, value)
        case 64: (value, 0)
        default: (value >> (64 - shift), value << shift)
        }
    }

    @inline(__always)
    private static func isLess(_ a: (UInt64, UInt64), than b: (UInt64, UInt64)) -> Bool {
        a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
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
