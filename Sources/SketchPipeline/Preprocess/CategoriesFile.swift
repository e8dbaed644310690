import SketchIO

/// `preprocess --categories-file FILE`: the class list of a run, one category a line, in class
/// order, e.g. Quick, Draw!'s 345 categories. Blank lines and lines starting with `#` are skipped;
/// spaces around a word are dropped (words keep their inner spaces: `The Eiffel Tower`); a
/// Windows line end (`\r\n`) counts as one. The words then take the path of `--category`: the same
/// checks, order and "did you mean" (``FilterCheck``).
package enum CategoriesFile {
    /// The most bytes read from the file (docs/limits.md): 345 categories take about 3 KiB.
    package static let maximumBytes = 1 << 20

    /// The categories of the file at `path`; throws `PipelineError` naming the file and line of a
    /// problem (unreadable, over ``maximumBytes``, not UTF-8, a control character, a repeated
    /// word, or no category at all).
    package static func read(_ path: String) throws(PipelineError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path, maximumBytes: maximumBytes)
        } catch {
            throw PipelineError(.configuration, "--categories-file \(TerminalText.escaped(path)): \(error.description)")
        }
        return try parse(bytes, path: path)
    }

    /// The categories in `bytes`, the contents of the file at `path` (for messages).
    package static func parse(_ bytes: [UInt8], path: String) throws(PipelineError) -> [String] {
        let file = "--categories-file \(TerminalText.escaped(path))"
        var words: [String] = []
        var firstLine: [[UInt8]: Int] = [:]  // by bytes, as class words are compared (ClassWords)
        for (index, rawLine) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            guard let line = String(validating: rawLine.last == 0x0D ? rawLine.dropLast() : rawLine, as: UTF8.self) else {
                throw PipelineError(.configuration, "\(file):\(number): not UTF-8 text")
            }
            let word = String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            if word.isEmpty || word.hasPrefix("#") { continue }
            if let control = word.unicodeScalars.first(where: TerminalText.isControl) {
                throw PipelineError(
                    .configuration,
                    "\(file):\(number): '\(TerminalText.escaped(word))' holds the control character U+\(String(control.value, radix: 16, uppercase: true))"
                )
            }
            if let first = firstLine[Array(word.utf8)] {
                throw PipelineError(
                    .configuration, "\(file):\(number): '\(word)' is listed twice (first on line \(first); each category is one class)")
            }
            firstLine[Array(word.utf8)] = number
            words.append(word)
        }
        guard !words.isEmpty else {
            throw PipelineError(.configuration, "\(file): no category (one word a line; blank lines and # comments are skipped)")
        }
        return words
    }
}
