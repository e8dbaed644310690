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
/// coordinates such as `33.507999420166016`) take `decimalPath`: one 128-bit multiply by a
/// reciprocal power of five (Eisel–Lemire). Anything else goes to the
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

    /// 5^-k for k = 1…19 as 128-bit fractions with their top bit set, rounded up, as (high, low)
    /// words: `2^(z + 127) / 5^k + 1` (integer division) with z the least integer such that
    /// 2^z ≥ 5^k: the entries for 10^-1 … 10^-19 of the table of the fast_float library (Lemire,
    /// "Number Parsing at a Gigabyte per Second", 2021), which `JSONNumberParserTests` checks by
    /// comparing every conversion with `strtod`.
    private static let reciprocalPowersOfFive: [(high: UInt64, low: UInt64)] = [
        (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD),  // 5^-1
        (0xA3D7_0A3D_70A3_D70A, 0x3D70_A3D7_0A3D_70A4),  // 5^-2
        (0x8312_6E97_8D4F_DF3B, 0x645A_1CAC_0831_26EA),  // 5^-3
        (0xD1B7_1758_E219_652B, 0xD3C3_6113_404E_A4A9),  // 5^-4
        (0xA7C5_AC47_1B47_8423, 0x0FCF_80DC_3372_1D54),  // 5^-5
        (0x8637_BD05_AF6C_69B5, 0xA63F_9A49_C2C1_B110),  // 5^-6
        (0xD6BF_94D5_E57A_42BC, 0x3D32_9076_0469_1B4D),  // 5^-7
        (0xABCC_7711_8461_CEFC, 0xFDC2_0D2B_36BA_7C3E),  // 5^-8
        (0x8970_5F41_36B4_A597, 0x3168_0A88_F895_3031),  // 5^-9
        (0xDBE6_FECE_BDED_D5BE, 0xB573_440E_5A88_4D1C),  // 5^-10
        (0xAFEB_FF0B_CB24_AAFE, 0xF78F_69A5_1539_D749),  // 5^-11
        (0x8CBC_CC09_6F50_88CB, 0xF93F_87B7_442E_45D4),  // 5^-12
        (0xE12E_1342_4BB4_0E13, 0x2865_A5F2_06B0_6FBA),  // 5^-13
        (0xB424_DC35_095C_D80F, 0x5384_84C1_9EF3_8C95),  // 5^-14
        (0x901D_7CF7_3AB0_ACD9, 0x0F9D_3701_4BF6_0A11),  // 5^-15
        (0xE695_94BE_C44D_E15B, 0x4C2E_BE68_7989_A9B4),  // 5^-16
        (0xB877_AA32_36A4_B449, 0x09BE_FEB9_FAD4_87C3),  // 5^-17
        (0x9392_EE8E_921D_5D07, 0x3AFF_322E_6243_9FD0),  // 5^-18
        (0xEC1E_4A7D_B695_61A5, 0x2B31_E9E3_D06C_32E6),  // 5^-19
    ]

    /// Correctly rounded `mantissa / 10^fractionDigits` for 1 ≤ fractionDigits ≤ 19 and any
    /// 64-bit mantissa (so any decimal of up to 19 significant digits), else nil, by the
    /// Eisel–Lemire method: the mantissa, shifted to set its top bit, times the 128-bit 5^-k of
    /// ``reciprocalPowersOfFive`` gives the 54 leading bits of the quotient and whether the bits
    /// below them are exactly zero, from which it rounds to nearest, ties to even. Mushtak and
    /// Lemire ("Fast Number Parsing Without Fallback", 2023) prove the 128-bit product enough for
    /// every 64-bit mantissa, so no case is left to `strtod`. Against a candidate by division
    /// checked in 128-bit integers against its neighbouring midpoints, a read of the shared raw
    /// NDJSON by `sketchprep.read` runs 2.3 % fewer instructions (docs/python.md, Speed).
    @inline(__always)
    static func decimalPath(mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard fractionDigits >= 1, fractionDigits <= 19 else { return nil }
        guard mantissa != 0 else { return negative ? -0.0 : 0.0 }
        let zeros = mantissa.leadingZeroBitCount
        let normalized = mantissa &<< UInt64(truncatingIfNeeded: zeros)
        let power = reciprocalPowersOfFive[fractionDigits &- 1]
        var product = normalized.multipliedFullWidth(by: power.high)
        // The nine bits below the 55 kept are all ones: the low word of 5^-k may carry into them.
        if product.high & 0x1FF == 0x1FF {
            let (low, carry) = product.low.addingReportingOverflow(normalized.multipliedFullWidth(by: power.low).high)
            product.low = low
            if carry { product.high &+= 1 }
        }
        let upper = Int(truncatingIfNeeded: product.high &>> 63)
        let shift = UInt64(truncatingIfNeeded: upper &+ 9)
        var significand = product.high &>> shift
        // floor(-k · log2 10) + 63 (217,706 / 2^16 is log2 10 to the precision needed), biased.
        var exponent = ((-217_706 &* fractionDigits) &>> 16) &+ 63 &+ upper &- zeros &+ 1023
        // Exactly halfway between two doubles (possible only for k ≤ 4): round down to even.
        if product.low <= 1 && fractionDigits <= 4 && significand & 3 == 1 && significand &<< shift == product.high {
            significand &= ~1
        }
        significand &+= significand & 1
        significand &>>= 1
        if significand >= 1 << 53 {
            significand = 1 << 52
            exponent &+= 1
        }
        let value = Double(
            bitPattern: UInt64(truncatingIfNeeded: exponent) &<< 52 | significand & ~(1 << 52))
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
