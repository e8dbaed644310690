/// Paths that arrive as bytes (a directory entry, a command-line argument, the Python package's
/// C calls): the one check that they are UTF-8 text, as every path SketchPrep opens is a `String`,
/// and the one way a path that is not is shown and refused.
package enum PathBytes {
    /// Why a path that is not UTF-8 is refused (after what it is: "file name is …", "argument 2 … is …").
    package static let notUTF8 = "not valid UTF-8 (rename it to read it)"

    /// `bytes` as a path, or nil when they are not valid UTF-8 (a lossy decoding would name another file).
    package static func decoded(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// `bytes` for a message: ASCII as it is (a message's terminal check escapes control
    /// characters), every other byte as `\xNN`.
    package static func escaped(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            if byte < 0x80 {
                text.append(byte)
            } else {
                text += [UInt8(ascii: "\\"), UInt8(ascii: "x")]
                HexDigits.append(byte, to: &text)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The refusal of the first argument of `arguments` (program name first, not counted) that is
    /// not valid UTF-8: `argument 2 (caf\xe9.ndjson) is not valid UTF-8 (rename it to read it)`;
    /// nil when every one is UTF-8.
    package static func undecodableArgument(_ arguments: [[UInt8]]) -> String? {
        for (index, argument) in arguments.enumerated().dropFirst() where decoded(argument) == nil {
            return "argument \(index) (\(escaped(argument))) is \(notUTF8)"
        }
        return nil
    }
}
