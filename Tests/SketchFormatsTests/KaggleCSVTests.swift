import SketchTestSupport
import Testing

@testable import SketchFormats

/// `KaggleCSV`'s field rules that its decoder's differential tests (`InputFormatPluginTests`)
/// cannot see, since a row and its NDJSON line share them.
@Suite struct KaggleCSVTests {
    /// Google's timestamp text for `text` as the rule states it, byte by byte: `YYYY-MM-DD
    /// HH:MM:SS` (ASCII digits where the pattern has letters), then nothing or `.` and 1 to 9
    /// digits, whose trailing zeros are dropped (the `.` too when none is left), then ` UTC`;
    /// any other text unchanged.
    static func referenceTimestamp(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let pattern = Array("0000-00-00 00:00:00".utf8)
        guard bytes.count >= pattern.count else { return text }
        for (byte, expected) in zip(bytes, pattern) {
            let fits = expected == UInt8(ascii: "0") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
            if !fits { return text }
        }
        var fraction = Array(bytes[pattern.count...])
        if !fraction.isEmpty {
            guard fraction[0] == UInt8(ascii: "."), (2...10).contains(fraction.count),
                fraction.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return text }
            while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
            if fraction.count == 1 { fraction.removeAll() }
        }
        return String(decoding: bytes[..<pattern.count] + fraction, as: UTF8.self) + " UTC"
    }

    @Test("Kaggle timestamps become Google's text, and a timestamp with any byte of its pattern changed is kept as it is")
    func timestampsConvertByTheirPatternAndAnyOtherTextIsKept() {
        #expect(KaggleCSV.googleTimestamp("2017-03-08 21:12:07.266040") == "2017-03-08 21:12:07.26604 UTC")
        #expect(KaggleCSV.googleTimestamp("2017-03-08 21:12:07.000000") == "2017-03-08 21:12:07 UTC")
        #expect(KaggleCSV.googleTimestamp("2017-03-08 21:12:07") == "2017-03-08 21:12:07 UTC")
        #expect(KaggleCSV.googleTimestamp("2017-03-08T21:12:07") == "2017-03-08T21:12:07")
        // Every byte of the pattern replaced in turn by digits, separators, neighbours of the
        // digits, and bytes whose low seven bits are digits or separators (`°`, `²`: 0xB0, 0xB2
        // after 0xC2), then seeded fractions.
        let base = Array("2017-03-08 21:12:07".utf8)
        let replacements: [[UInt8]] = [
            [0x30], [0x39], [0x2F], [0x3A], [0x2D], [0x20], [0x00], [0x7F], [0xC2, 0xB0], [0xC2, 0xB2], [0xC2, 0xBA],
        ]
        var random = SeededGenerator(seed: 0x7135)
        for position in base.indices {
            for replacement in replacements {
                var bytes = base
                bytes.replaceSubrange(position...position, with: replacement)
                for _ in 0..<3 {
                    let digits = Int(random.next() % 12)
                    let fraction =
                        random.next() % 4 == 0 ? "" : "." + String((0..<digits).map { _ in Character(String(random.next() % 10)) })
                    let text = String(decoding: bytes, as: UTF8.self) + fraction
                    #expect(KaggleCSV.googleTimestamp(text) == Self.referenceTimestamp(text), "\(text)")
                }
            }
        }
    }
}
