/// Text from data made safe for a terminal: the one place control characters are escaped.
package enum TerminalText {
    /// Whether `scalar` is a control character (C0, DEL, C1), a line or paragraph separator, or a
    /// bidirectional override or isolate (which reorders what a terminal shows): the one set of
    /// characters that text from data may not carry into names (``DataName``) or onto a terminal.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every control character written as `\u{XX}` (the hex code point), so an ESC
    /// in a key_id prints as `\u{1B}` instead of starting an escape sequence. With
    /// `keepingLineBreaks`, newline and tab are kept (for the tool's own multi-line messages).
    package static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t")) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
