import SketchReports
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
}
