import Foundation
import SketchTestSupport
import Testing

@testable import SketchFormats

/// `JSONNumberParser.decimalPath` turns a decimal of up to 19 significant digits and 1 to 19
/// fraction digits into the double `strtod` gives it (the C library rounds correctly, to nearest,
/// ties to even), whatever the mantissa: random mantissas of every length and fraction length,
/// the values exactly halfway between two doubles and their neighbours, and the raw files' float32
/// coordinates written by their shortest repr.
@Suite struct JSONNumberParserTests {
    /// `strtod`'s double for `mantissa` × 10^-`fractionDigits`, written as JSON writes it.
    private func strtodValue(_ mantissa: UInt64, _ fractionDigits: Int, negative: Bool = false) -> Double {
        strtod((negative ? "-" : "") + "\(mantissa)e-\(fractionDigits)", nil)
    }

    /// Checks every case; the first ten disagreements are reported, with their count.
    private func expectStrtodsDoubles(_ cases: [(mantissa: UInt64, fractionDigits: Int)], negative: Bool = false) {
        var disagreements = 0
        for (mantissa, fractionDigits) in cases {
            let value = JSONNumberParser.decimalPath(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
            let expected = strtodValue(mantissa, fractionDigits, negative: negative)
            guard value?.bitPattern != expected.bitPattern else { continue }
            disagreements += 1
            if disagreements <= 10 {
                Issue.record("\(mantissa)e-\(fractionDigits): \(String(describing: value)), strtod \(expected)")
            }
        }
        #expect(disagreements == 0, "\(disagreements) of \(cases.count) disagree")
    }

    @Test func randomMantissasOfEveryLengthConvertAsStrtodDoes() {
        var random = SeededGenerator(seed: 0xE15E)
        var cases: [(UInt64, Int)] = []
        for digits in 1...19 {
            let low = digits == 1 ? 0 : power(10, digits - 1)
            let span = power(10, digits) - low
            for fractionDigits in 1...19 {
                for _ in 0..<300 { cases.append((low + random.next() % span, fractionDigits)) }
            }
        }
        // The largest mantissas, beyond 19 digits' 10^19 − 1 up to 2^64 − 1.
        for fractionDigits in 1...19 {
            for below in 0..<UInt64(50) { cases.append((UInt64.max - below * 0x1_0000_0001, fractionDigits)) }
        }
        expectStrtodsDoubles(cases)
        expectStrtodsDoubles(Array(cases.prefix(2_000)), negative: true)
    }

    @Test func valuesHalfwayBetweenTwoDoublesRoundToEvenAndTheirNeighboursToNearest() {
        // (2^b + odd) / 2^j lies halfway between two doubles for b ≥ 53; as a decimal of k ≥ j
        // fraction digits its mantissa is (2^b + odd) · 5^j · 10^(k − j).
        var cases: [(UInt64, Int)] = []
        for fractionDigits in 1...19 {
            for halvings in 0...fractionDigits {
                let factor = power(5, halvings).multipliedReportingOverflow(by: power(10, fractionDigits - halvings))
                guard !factor.overflow else { continue }
                for bits in [53, 54, 55, 58, 60] {
                    for odd in stride(from: UInt64(1), to: 200, by: 2) {
                        let scaled = (UInt64(1) << UInt64(bits) + odd).multipliedReportingOverflow(by: factor.partialValue)
                        guard !scaled.overflow else { continue }
                        for mantissa in [scaled.partialValue - 1, scaled.partialValue, scaled.partialValue + 1] {
                            cases.append((mantissa, fractionDigits))
                        }
                    }
                }
            }
        }
        #expect(cases.count > 1_000)
        expectStrtodsDoubles(cases)
    }

    @Test func float32CoordinatesWrittenByTheirShortestReprConvertAsStrtodDoes() {
        // The raw files' coordinates: float32 values printed as the shortest repr of their double.
        var random = SeededGenerator(seed: 0xF32)
        var cases: [(UInt64, Int)] = []
        for _ in 0..<20_000 {
            let value = Double(Float(bitPattern: 0x3F80_0000 + UInt32(truncatingIfNeeded: random.next() % 0x0B00_0000)))
            let text = "\(value)"
            guard let point = text.firstIndex(of: "."), !text.contains("e"),
                let mantissa = UInt64(text.replacingOccurrences(of: ".", with: ""))
            else { continue }
            let fractionDigits = text.distance(from: point, to: text.endIndex) - 1
            guard fractionDigits >= 1 else { continue }
            cases.append((mantissa, fractionDigits))
        }
        #expect(cases.count > 10_000)
        expectStrtodsDoubles(cases)
    }

    @Test func aZeroMantissaIsZeroWithItsSign() {
        #expect(JSONNumberParser.decimalPath(mantissa: 0, fractionDigits: 3, negative: false)?.bitPattern == 0.0.bitPattern)
        #expect(JSONNumberParser.decimalPath(mantissa: 0, fractionDigits: 3, negative: true)?.bitPattern == (-0.0).bitPattern)
    }

    @Test func fractionLengthsOutsideOneToNineteenAreLeftToStrtod() {
        #expect(JSONNumberParser.decimalPath(mantissa: 123, fractionDigits: 0, negative: false) == nil)
        #expect(JSONNumberParser.decimalPath(mantissa: 123, fractionDigits: 20, negative: false) == nil)
    }

    /// `base`^`exponent` (no more than 10^19 here, which fits).
    private func power(_ base: UInt64, _ exponent: Int) -> UInt64 {
        (0..<exponent).reduce(1) { value, _ in value * base }
    }
}
