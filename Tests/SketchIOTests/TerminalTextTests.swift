import SketchIO
import Testing

/// Text from data printed to the terminal.
@Suite struct TerminalTextTests {
    @Test("control characters from data are escaped for the terminal; line breaks only when asked")
    func controlCharactersAreEscapedForTheTerminal() {
        #expect(TerminalText.escaped("key\u{1B}[2J\u{7}\u{9B}x") == "key\\u{1B}[2J\\u{7}\\u{9B}x")
        #expect(TerminalText.escaped("a\nb\u{202E}") == "a\\u{A}b\\u{202E}")
        #expect(TerminalText.escaped("a\nb\t\u{1B}", keepingLineBreaks: true) == "a\nb\t\\u{1B}")
        #expect(TerminalText.escaped("plain ünïcode") == "plain ünïcode")
    }
}
