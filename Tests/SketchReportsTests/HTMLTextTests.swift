import SketchReports
import SketchTestSupport
import Testing

/// Text from data placed in HTML and SVG pages.
@Suite struct HTMLTextTests {
    @Test("HTML escaping works on scalars: a quote followed by a combining mark is still escaped")
    func quoteWithCombiningMarkIsEscaped() {
        let keyID = "x\"\u{301} onload=alert(1) \u{1B}"
        let escaped = HTMLText.escaped(keyID)
        #expect(!escaped.unicodeScalars.contains("\""))
        #expect(escaped == "x&quot;\u{301} onload=alert(1) \u{FFFD}")
        #expect(HTMLText.contentSecurityPolicy.contains("default-src 'none'"))
    }

    @Test("escaped HTML text holds no raw < > & \" ' and reads back as the text (controls as U+FFFD), for generated texts")
    func escapedTextReadsBackAsTheText() {
        var generator = SeededGenerator(seed: 30)
        let references = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'"]
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 24)
            let scalars = (0..<length).map { _ in MarkdownTextTests.palette[Int(generator.next() % UInt64(MarkdownTextTests.palette.count))]
            }
            let escaped = HTMLText.escaped(String(String.UnicodeScalarView(scalars)))
            // Read back on scalars: each reference, then the rest as it is.
            var decoded = String.UnicodeScalarView()
            var rest = Array(escaped.unicodeScalars)[...]
            while let first = rest.first {
                if first == "&", let (reference, value) = references.first(where: { rest.starts(with: $0.key.unicodeScalars) }) {
                    decoded.append(contentsOf: value.unicodeScalars)
                    rest = rest.dropFirst(reference.unicodeScalars.count)
                } else {
                    #expect(!"<>&\"'".unicodeScalars.contains(first), "raw \(first) in \(escaped.debugDescription)")
                    decoded.append(first)
                    rest = rest.dropFirst()
                }
            }
            let expected = scalars.map { scalar -> Unicode.Scalar in
                let keep = scalar == "\t" || scalar == "\n" || scalar == "\r"
                let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x2028, 0x202E].contains(scalar.value)
                return control && !keep ? "\u{FFFD}" : scalar
            }
            #expect(Array(decoded) == expected, "\(escaped.debugDescription)")
        }
    }
}
