import Foundation
import SketchCore
import SketchIO

/// The one rule for text that comes from data and ends up naming something: a category word
/// (a file name `<word>.npz`, a line of `classes.txt`, an HTML heading), a key_id (a line of
/// `.keys.txt`, a WebDataset member, an HTML attribute), a country code or timestamp (report
/// text, terminal lines). Every reader of drawings applies it (``recordProblem(_:)``, which every
/// input format's decoder asks: NDJSON, `.bin`, stroke-3, CSV, SVG; image directories through
/// their listing), so a record that breaks it is quarantined with the reason, whatever the command.
///
/// docs/limits.md lists the rule and its caps.
public enum DataName {
    /// The longest suffix a writer adds to a word to make a file name (`<word>.ndjson`).
    public static let longestFileSuffix = ".ndjson"

    /// Most UTF-8 bytes of a word: 255 (the file-name limit of Linux and macOS file systems) less
    /// the longest file suffix and the longest temporary-file suffix (``TemporaryFileName``).
    public static let maximumWordBytes = 255 - longestFileSuffix.utf8.count - TemporaryFileName.maximumSuffixBytes

    /// Most UTF-8 bytes of a key_id, country code or timestamp.
    public static let maximumTextBytes = 1024

    /// Why `word` cannot name a class (and a file), or nil when it can: empty, `.` or `..`, a `/`,
    /// `\`, NUL or other control character (``TerminalText/isControl(_:)``), or more than
    /// ``maximumWordBytes`` bytes.
    @inline(__always)
    public static func wordProblem(_ word: String) -> String? {
        isPlain(word, pathSeparators: true, maximumBytes: maximumWordBytes) && word != "." && word != ".." ? nil : wordProblemFound(word)
    }

    /// ``wordProblem(_:)`` one check at a time, for a word `isPlain` did not let through.
    @inline(never)
    private static func wordProblemFound(_ word: String) -> String? {
        if word.isEmpty { return "word is empty" }
        if word == "." || word == ".." { return "word \"\(word)\" cannot be a file name" }
        let bytes = word.utf8
        if bytes.count > maximumWordBytes {
            return "word is \(bytes.count) bytes long, more than \(maximumWordBytes) (it must fit a file name with its suffixes)"
        }
        // Over the contiguous UTF-8 (`utf8.contains` was 1 % of a read).
        var contiguous = word
        if contiguous.withUTF8({ $0.contains(UInt8(ascii: "/")) || $0.contains(UInt8(ascii: "\\")) }) {
            return "word \(quoted(word)) holds a path separator and cannot be a file name"
        }
        if let control = firstControlCharacter(word) {
            return "word \(quoted(word)) holds the control character \(control)"
        }
        return nil
    }

    /// What is wrong with the text fields of `record`, or nil: ``wordProblem(_:)`` of its word,
    /// then ``textProblem(_:field:)`` of its key_id, country code and timestamp. The one check
    /// every input format's decoder makes of a record's names.
    package static func recordProblem(_ record: SketchRecord) -> String? {
        wordProblem(record.word) ?? textProblem(record.keyID, field: "key_id")
            ?? textProblem(record.countryCode, field: "countrycode") ?? textProblem(record.timestamp, field: "timestamp")
    }

    /// Why `text` (a key_id, country code or timestamp; `field` names it) cannot be written as a
    /// line or a report cell, or nil: a control character, or more than ``maximumTextBytes`` bytes.
    @inline(__always)
    public static func textProblem(_ text: String, field: String) -> String? {
        isPlain(text, pathSeparators: false, maximumBytes: maximumTextBytes) ? nil : textProblemFound(text, field: field)
    }

    /// ``textProblem(_:field:)`` one check at a time, for text `isPlain` did not let through.
    @inline(never)
    private static func textProblemFound(_ text: String, field: String) -> String? {
        if text.utf8.count > maximumTextBytes {
            return "\(field) is \(text.utf8.count) bytes long, more than \(maximumTextBytes)"
        }
        if let control = firstControlCharacter(text) {
            return "\(field) \(quoted(text)) holds the control character \(control)"
        }
        return nil
    }

    /// The form under which two words are the same name: normalized (NFD) and, with
    /// `caseInsensitive`, case-folded — as macOS's default file system compares file names.
    public static func collisionKey(_ word: String, caseInsensitive: Bool) -> [UInt8] {
        let normalized = word.decomposedStringWithCanonicalMapping
        guard caseInsensitive else { return Array(normalized.utf8) }
        return Array(normalized.folding(options: [.caseInsensitive], locale: nil).decomposedStringWithCanonicalMapping.utf8)
    }

    /// Splits `words` (byte-wise distinct, in byte-wise order) into those that keep their class and
    /// those that collide with an earlier word by ``collisionKey(_:caseInsensitive:)``, each mapped
    /// (by its UTF-8 bytes) to the word it collides with. Words that differ only by normalization
    /// always collide (they look alike and are one `String` in Swift); words that differ only by
    /// case collide where words name files (`caseInsensitive`).
    public static func separateCollisions(_ words: [String], caseInsensitive: Bool) -> (kept: [String], colliding: [[UInt8]: String]) {
        var owner: [[UInt8]: String] = [:]
        var kept: [String] = []
        var colliding: [[UInt8]: String] = [:]
        for word in words {
            let key = collisionKey(word, caseInsensitive: caseInsensitive)
            if let first = owner[key] {
                colliding[Array(word.utf8)] = first
            } else {
                owner[key] = word
                kept.append(word)
            }
        }
        return (kept, colliding)
    }

    /// The reason a record of class `word` is quarantined because it collides with `earlier`.
    public static func collisionReason(_ word: String, earlier: String) -> String {
        "word \(quoted(word)) differs from the class \(quoted(earlier)) only by case or Unicode normalization, "
            + "so their files would overwrite each other on a case-insensitive file system (or they would look like "
            + "one class): the later class in byte order is quarantined"
    }

    /// `text` in double quotes with quotes, backslashes and control characters escaped
    /// (``TerminalText``), safe on a terminal and in a message.
    public static func quoted(_ text: String) -> String {
        "\"" + TerminalText.escaped(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")) + "\""
    }

    /// The first control character of `text` (``TerminalText/isControl(_:)``) as `U+XXXX`, or nil.
    /// Its callers ask it only for text that ``isPlain(_:pathSeparators:maximumBytes:)`` did not
    /// let through (which includes any text without contiguous UTF-8).
    private static func firstControlCharacter(_ text: String) -> String? {
        guard let scalar = text.unicodeScalars.first(where: TerminalText.isControl) else { return nil }
        return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    /// Whether `text` is at most `maximumBytes` bytes of ``isPlain(_:pathSeparators:)`` text, and
    /// with `pathSeparators` (a word) not empty: what ``wordProblem(_:)`` and
    /// ``textProblem(_:field:)`` let through after one look at the bytes, eight at a time, before
    /// their checks one by one. With the checks alone (their `.`/`..` comparisons, byte count and a
    /// closure per byte), read + decode of 71,000 simplified drawings took 3.9 % more instructions,
    /// of the same as `.bin` 9.3 % more (Benchmarks/README.md).
    @inline(__always)
    private static func isPlain(_ text: String, pathSeparators: Bool, maximumBytes: Int) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            (pathSeparators ? !bytes.isEmpty : true) && bytes.count <= maximumBytes && isPlain(bytes, pathSeparators: pathSeparators)
        } ?? false
    }

    /// Whether every byte of `bytes` is printable ASCII (0x20–0x7E), and with `pathSeparators`
    /// none is `/` or `\\`: the text every check above lets through, looked at eight bytes at a
    /// time. Each test tells only whether some byte of the eight fails it, which is all the answer
    /// needs; the checks above find which.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, pathSeparators: Bool) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        // A top bit set where some byte of `word` is zero (exact as to whether one is).
        @inline(__always) func zeroByte(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & tops }
        @inline(__always) func fails(_ word: UInt64) -> UInt64 {
            // Below 0x20: the subtraction borrows out of such a byte's top bit (or it had one).
            var failed = ((word &- 0x20 &* ones) & ~word & tops) | (word & tops) | zeroByte(word ^ 0x7F &* ones)
            if pathSeparators { failed |= zeroByte(word ^ 0x2F &* ones) | zeroByte(word ^ 0x5C &* ones) }
            return failed
        }
        guard raw.count >= 8 else {
            for byte in raw where byte < 0x20 || byte >= 0x7F || (pathSeparators && (byte == 0x2F || byte == 0x5C)) {
                return false
            }
            return true
        }
        var offset = 0
        var failed: UInt64 = 0
        while offset + 8 <= raw.count {
            failed |= fails(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last eight bytes, some of them looked at already, for the ones after the last whole eight.
        if offset < raw.count { failed |= fails(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)) }
        return failed == 0
    }
}

extension String {
    /// Left-padded with zeros to `width` characters.
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
