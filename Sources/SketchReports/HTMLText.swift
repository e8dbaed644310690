import SketchIO

/// Text for HTML and SVG documents (the stats page, the evaluation report).
package enum HTMLText {
    /// `text` with the five XML special characters escaped, for element content and (double-quoted)
    /// attribute values. Works on Unicode scalars, not `Character`s: a `"` followed by a combining
    /// mark is one grapheme but two scalars, and its quote is escaped all the same. Control
    /// characters other than tab, newline and carriage return (C0, DEL, C1), which HTML forbids in
    /// text, and bidirectional overrides (``TerminalText/isControl(_:)``) become U+FFFD.
    package static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "\t", "\n", "\r": out.append(scalar)
            default: out.append(TerminalText.isControl(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// The `<meta>` element every page SketchPrep writes carries in its `<head>`: a
    /// Content-Security-Policy that allows no script, no external resource and no form (images
    /// only as `data:` URLs, styles only inline), so text from data can never run as code even if
    /// an escape were missed.
    package static let contentSecurityPolicy =
        #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'">"#
}
