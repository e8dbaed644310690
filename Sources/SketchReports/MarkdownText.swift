import SketchIO

/// Text for Markdown documents (`stats.md`, `parity.md`, the eval `report.md`): the one escape of
/// text from data written into them.
package enum MarkdownText {
    /// `text` as Markdown that shows exactly `text` and nothing else, wherever it is put (a table
    /// cell, a heading, a sentence): every character Markdown or HTML gives a meaning (`& < > " '`,
    /// the table's `|`, the emphasis, code, link and strikethrough marks `` \ ` * _ [ ] ~ ! ``,
    /// `#`, `$`) and every line break or tab becomes a numeric character reference (`&#60;`),
    /// so no tag, link, code span, emphasis or row break can come from data. Control characters
    /// other than tab, newline and carriage return and bidirectional overrides
    /// (``TerminalText/isControl(_:)``) become U+FFFD, as in ``HTMLText/escaped(_:)``.
    package static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII, escapedASCII.contains(UInt8(scalar.value)) {
                out.append(contentsOf: "&#\(scalar.value);".unicodeScalars)
            } else {
                out.append(TerminalText.isControl(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// The ASCII characters `escaped` writes as character references.
    private static let escapedASCII = Set("&<>\"'|\\`*_[]~!#$\t\n\r".utf8)
}
