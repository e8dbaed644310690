import SketchReports
import SketchTestSupport
import Testing

@Suite struct MarkdownTextTests {
    /// The scalars the generated texts are made of: every Markdown and HTML mark, line breaks,
    /// controls, a combining mark, a bidirectional override, letters.
    static let palette: [Unicode.Scalar] =
        Array("<>&\"'|\\`*_[]~!#$()-+.:=/ \t\n\rab1é".unicodeScalars) + [
            "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{0301}", "\u{202E}", "\u{2028}", "\u{1F600}",
        ]

    /// `text` with its `&#N;` references decoded, and the scalars outside every reference (the
    /// oracle's reading of the escaped text; on scalars, as Markdown reads it, so a combining mark
    /// after `;` does not hide the reference's end).
    static func decoded(_ text: String) -> (text: String, outside: String) {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var outside = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", index + 1 < scalars.count, scalars[index + 1] == "#" {
                var end = index + 2
                var value: UInt32 = 0
                while end < scalars.count, end - index < 12,
                    let digit = scalars[end].properties.numericType == .decimal ? scalars[end].value - 48 : nil,
                    digit < 10
                {
                    value = value * 10 + digit
                    end += 1
                }
                if end > index + 2, end < scalars.count, scalars[end] == ";", let scalar = Unicode.Scalar(value) {
                    out.append(scalar)
                    index = end + 1
                    continue
                }
            }
            out.append(scalars[index])
            outside.append(scalars[index])
            index += 1
        }
        return (String(out), String(outside))
    }

    @Test("escaped text holds no raw mark, pipe, backtick, line break or control, and reads back as the text (controls as U+FFFD)")
    func escapedTextReadsBackAsTheText() {
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 24)
            let scalars = (0..<length).map { _ in Self.palette[Int(generator.next() % UInt64(Self.palette.count))] }
            let text = String(String.UnicodeScalarView(scalars))
            let escaped = MarkdownText.escaped(text)
            let raw = Self.decoded(escaped).outside.unicodeScalars.filter { "&<>\"'|\\`*_[]~!#$\t\n\r".unicodeScalars.contains($0) }
            #expect(raw.isEmpty, "raw marks in \(escaped.debugDescription)")
            #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
            let expected = String(
                String.UnicodeScalarView(
                    scalars.map { scalar in
                        let keep = scalar == "\t" || scalar == "\n" || scalar == "\r"
                        let control =
                            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x2028, 0x202E].contains(scalar.value)
                        return control && !keep ? "\u{FFFD}" : scalar
                    }))
            #expect(Self.decoded(escaped).text == expected, "\(text.debugDescription) → \(escaped.debugDescription)")
        }
    }

    @Test("an event-handler tag from a class word is written as text")
    func aTagBecomesText() {
        #expect(MarkdownText.escaped("<img src=x onerror=alert(1)>") == "&#60;img src=x onerror=alert(1)&#62;")
    }
}
