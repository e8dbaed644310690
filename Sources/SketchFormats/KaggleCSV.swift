import SketchCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CSV files of Kaggle's "Quick, Draw! Doodle Recognition" competition: one row's fields
/// (``row(_:layout:word:)``), which `KaggleCSVInputFormat` decodes into a record, and the NDJSON
/// line in Google's layout a row stands for (``appendNDJSON(ofRow:layout:word:to:)``, its
/// quarantine form).
///
/// - `train_simplified/<word>.csv`, `train_raw/<word>.csv`: header
///   `countrycode,drawing,key_id,recognized,timestamp,word` (`Layout.train`);
/// - `test_simplified.csv`, `test_raw.csv`: header `key_id,countrycode,drawing` (`Layout.test`),
///   whose rows get the word the user names (`--word`), `recognized` true and an empty timestamp.
///
/// One record is one physical line (Kaggle's files have no newline inside a field). Fields are
/// separated by commas; a field may be quoted with `"` (a `""` inside is one quote). `drawing` is
/// the strokes as Python writes a list (`[[[x, …], [y, …]], …]`, raw strokes with a third `t`
/// list); it is taken as JSON holding only an array of numbers (brackets, commas, blanks,
/// digits, `.`, `-`, `+`, `e`, `E`) whose shape the record parser checks. The parser reads
/// nothing else, so a drawing it reads whole, stepping over no carriage return or newline, with
/// only blanks and tabs after it before the field's closing quote holds nothing else
/// (``row(_:layout:word:readingDrawing:)``); any other row is checked character by character
/// (`isNumberArray`) for its reason. `recognized` is `True` or `False`
/// (`true`/`false` too). A Kaggle timestamp `YYYY-MM-DD HH:MM:SS[.ffffff]` becomes Google's text for the same instant (trailing zeros of the
/// fraction dropped, ` UTC` appended: `2017-03-08 21:12:07.266040` →
/// `2017-03-08 21:12:07.26604 UTC`); any other text is kept as it is.
package enum KaggleCSV {
    /// The two header layouts.
    package enum Layout: Sendable {
        /// `countrycode,drawing,key_id,recognized,timestamp,word`.
        case train
        /// `key_id,countrycode,drawing`.
        case test

        /// The header line.
        package var header: String {
            switch self {
            case .train: return "countrycode,drawing,key_id,recognized,timestamp,word"
            case .test: return "key_id,countrycode,drawing"
            }
        }
    }

    /// Longest header line looked at.
    package static let maximumHeaderLength = 256

    /// The layout whose header `line` is (a UTF-8 byte order mark and a trailing `\r` are
    /// ignored), or nil.
    package static func layout(ofHeader line: some Collection<UInt8>) -> Layout? {
        var bytes = Array(line.prefix(maximumHeaderLength + 4))
        if bytes.starts(with: byteOrderMark) { bytes.removeFirst(3) }
        if bytes.last == 0x0D { bytes.removeLast() }
        return [Layout.train, .test].first { Array($0.header.utf8) == bytes }
    }

    /// Whether some header line (as ``layout(ofHeader:)`` accepts it: with a byte order mark, a
    /// trailing `\r`, or both) starts with `start`, the first bytes of an input's first line.
    package static func mayStartHeader(_ start: [UInt8]) -> Bool {
        let headers = [Layout.train, .test].map { Array($0.header.utf8) + [0x0D] }
        return headers.contains { $0.starts(with: start) || (byteOrderMark + $0).starts(with: start) }
    }

    /// The UTF-8 byte order mark a header line may start with.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// One row's fields as a record needs them; `drawing` points into the row.
    package struct Row {
        package var word: String
        package var countryCode: String
        package var timestamp: String
        package var recognized: Bool
        package var keyID: String
        /// The drawing field's bytes (a bracketed array of numbers only, `isNumberArray`).
        package var drawing: UnsafeBufferPointer<UInt8>
    }

    /// The fields of the CSV row `row` (without its newline) of a file in `layout`; `word` is the
    /// word of `test` rows. Throws `FormatError` naming what is wrong.
    package static func row(_ row: UnsafeBufferPointer<UInt8>, layout: Layout, word: String) throws(FormatError) -> Row {
        try self.row(row, layout: layout, word: word, readsDrawing: false) { _ in nil }
    }

    /// The fields of `row` as ``row(_:layout:word:)`` gives them, the drawing field read by
    /// `readDrawing` instead of looked at here (neither its UTF-8 nor ``isNumberArray(_:)``). The
    /// field must be quoted; `readDrawing` gets the row's bytes from the field's first byte after
    /// the quote and returns where the drawing it read ends, or nil. The field then ends at the
    /// closing quote after blanks and tabs; any other row is refused, with no reason worth
    /// keeping. The caller vouches for the drawing: its parser reads only brackets, commas, number
    /// characters and JSON blanks, so a drawing it reads whole, stepping over no carriage return
    /// or newline, passes ``isNumberArray(_:)``; any row it refuses is asked again with
    /// ``row(_:layout:word:)``, so every refusal keeps its reason.
    package static func row(
        _ row: UnsafeBufferPointer<UInt8>, layout: Layout, word: String,
        readingDrawing readDrawing: (UnsafeBufferPointer<UInt8>) -> Int?
    ) throws(FormatError) -> Row {
        try self.row(row, layout: layout, word: word, readsDrawing: true, readDrawing)
    }

    private static func row(
        _ row: UnsafeBufferPointer<UInt8>, layout: Layout, word: String, readsDrawing: Bool,
        _ readDrawing: (UnsafeBufferPointer<UInt8>) -> Int?
    ) throws(FormatError) -> Row {
        var row = row
        if row.last == 0x0D { row = UnsafeBufferPointer(rebasing: row.dropLast()) }
        let expected = layout == .train ? 6 : 3
        // train: countrycode,drawing,key_id,recognized,timestamp,word; test: key_id,countrycode,drawing.
        let (country, drawing, key) = layout == .train ? (0, 1, 2) : (1, 2, 0)
        let fields = try self.fields(of: row, readingField: readsDrawing ? drawing : nil, with: readDrawing)
        guard fields.count == expected else {
            throw FormatError(.record, "\(fields.count) CSV fields, the header \(layout.header) names \(expected)")
        }
        var recognized = true
        if layout == .train {
            let field = fields[3]
            let text = UnsafeBufferPointer(rebasing: row[field.range])
            if !field.hasEscapedQuote && (holds(text, "True") || holds(text, "true")) {
                recognized = true
            } else if !field.hasEscapedQuote && (holds(text, "False") || holds(text, "false")) {
                recognized = false
            } else {
                switch field.text(in: row) {
                case "True", "true": recognized = true
                case "False", "false": recognized = false
                case let other: throw FormatError(.record, "recognized is \"\(other)\", not True or False")
                }
            }
        }
        let drawingBytes = UnsafeBufferPointer(rebasing: row[fields[drawing].range])
        guard !fields[drawing].hasEscapedQuote, readsDrawing || isNumberArray(drawingBytes) else {
            throw FormatError(.record, "drawing is not a list of stroke lists of numbers")
        }
        return Row(
            word: layout == .train ? fields[5].text(in: row) : word, countryCode: fields[country].text(in: row),
            timestamp: layout == .train ? fields[4].timestamp(in: row) : "", recognized: recognized,
            keyID: fields[key].text(in: row), drawing: drawingBytes)
    }

    /// Whether `bytes` are the ASCII word `word`, compared in place (`elementsEqual` with a
    /// string's UTF-8 view is generic code, 1 % of a CSV read).
    private static func holds(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, word.utf8Start, bytes.count) == 0
    }

    /// Appends the keys of `row`'s NDJSON line in Google's layout, up to and including
    /// `"drawing":` (the drawing text follows, then `}`).
    package static func appendNDJSONKeys(of row: Row, to line: inout [UInt8]) {
        line.append(contentsOf: #"{"word":"#.utf8)
        SimplifiedNDJSONWriter.appendString(row.word, to: &line)
        line.append(contentsOf: #","countrycode":"#.utf8)
        SimplifiedNDJSONWriter.appendString(row.countryCode, to: &line)
        line.append(contentsOf: #","timestamp":"#.utf8)
        SimplifiedNDJSONWriter.appendString(row.timestamp, to: &line)
        line.append(contentsOf: row.recognized ? #","recognized":true,"key_id":"#.utf8 : #","recognized":false,"key_id":"#.utf8)
        SimplifiedNDJSONWriter.appendString(row.keyID, to: &line)
        line.append(contentsOf: #","drawing":"#.utf8)
    }

    /// Appends the NDJSON line of the CSV row `row` (without its newline) of a file in `layout`
    /// to `line` (`SimplifiedNDJSONWriter`'s key order, the drawing text as written): the form in
    /// which a row's record is quarantined. Throws what ``row(_:layout:word:)`` throws.
    package static func appendNDJSON(
        ofRow row: UnsafeBufferPointer<UInt8>, layout: Layout, word: String,
        to line: inout [UInt8]
    ) throws(FormatError) {
        let fields = try self.row(row, layout: layout, word: word)
        appendNDJSONKeys(of: fields, to: &line)
        line.append(contentsOf: fields.drawing)
        line.append(UInt8(ascii: "}"))
    }

    /// A row's fields, the first six kept in place (a layout has six at most; the rest are
    /// only counted), so splitting a row allocates nothing.
    private struct Fields {
        private var kept = (Field.none, Field.none, Field.none, Field.none, Field.none, Field.none)
        /// Number of fields, kept or not.
        private(set) var count = 0

        /// Adds `field` (kept when it is one of the first six).
        mutating func append(_ field: Field) {
            switch count {
            case 0: kept.0 = field
            case 1: kept.1 = field
            case 2: kept.2 = field
            case 3: kept.3 = field
            case 4: kept.4 = field
            case 5: kept.5 = field
            default: break
            }
            count += 1
        }

        /// Field `index` (of the first six).
        subscript(index: Int) -> Field {
            switch index {
            case 0: return kept.0
            case 1: return kept.1
            case 2: return kept.2
            case 3: return kept.3
            case 4: return kept.4
            default: return kept.5
            }
        }
    }

    /// Where one field's bytes are in its row (inside the quotes of a quoted field).
    private struct Field {
        var range: Range<Int>
        var hasEscapedQuote: Bool

        /// An empty field (a place not yet filled).
        static let none = Field(range: 0..<0, hasEscapedQuote: false)

        /// The field's text as a Google timestamp (``googleTimestamp(_:)``).
        func timestamp(in row: UnsafeBufferPointer<UInt8>) -> String {
            hasEscapedQuote
                ? googleTimestamp(text(in: row)) : googleTimestamp(bytes: UnsafeBufferPointer(rebasing: row[range])) ?? text(in: row)
        }

        /// The field's text (`""` read as one quote).
        func text(in row: UnsafeBufferPointer<UInt8>) -> String {
            let bytes = UnsafeBufferPointer(rebasing: row[range])
            guard hasEscapedQuote else { return String(decoding: bytes, as: UTF8.self) }
            var unquoted: [UInt8] = []
            var index = 0
            while index < bytes.count {
                unquoted.append(bytes[index])
                index += bytes[index] == UInt8(ascii: "\"") ? 2 : 1
            }
            return String(decoding: unquoted, as: UTF8.self)
        }
    }

    /// The fields of one CSV row (RFC 4180 quoting, no newline inside a field), each checked to
    /// be valid UTF-8, in order; field number `readField + 1` is read by `readDrawing` instead
    /// (``row(_:layout:word:readingDrawing:)``).
    private static func fields(
        of row: UnsafeBufferPointer<UInt8>, readingField readField: Int?,
        with readDrawing: (UnsafeBufferPointer<UInt8>) -> Int?
    ) throws(FormatError) -> Fields {
        var fields = Fields()
        var index = 0
        while true {
            let field: Field
            // Whether the field is ASCII, when known here (an unquoted field's bytes are looked at
            // while it is split); nil: not known.
            var ascii: Bool?
            if fields.count == readField {
                guard index < row.count && row[index] == UInt8(ascii: "\""),
                    let end = readDrawing(UnsafeBufferPointer(rebasing: row[(index + 1)...]))
                else { throw FormatError(.record, "drawing not read") }
                let start = index + 1
                index = start + end
                while index < row.count && (row[index] == 0x20 || row[index] == 0x09) { index += 1 }
                guard index < row.count && row[index] == UInt8(ascii: "\""),
                    index + 1 == row.count || row[index + 1] == UInt8(ascii: ",")
                else { throw FormatError(.record, "drawing not read") }
                field = Field(range: start..<index, hasEscapedQuote: false)
                index += 1
            } else if index < row.count && row[index] == UInt8(ascii: "\"") {
                index += 1
                let start = index
                var escaped = false
                while true {
                    index = nextQuote(in: row, from: index)
                    guard index < row.count else { throw FormatError(.record, "CSV field \(fields.count + 1): quote not closed") }
                    guard index + 1 < row.count && row[index + 1] == UInt8(ascii: "\"") else { break }
                    escaped = true
                    index += 2
                }
                field = Field(range: start..<index, hasEscapedQuote: escaped)
                index += 1
                guard index == row.count || row[index] == UInt8(ascii: ",") else {
                    throw FormatError(.record, "CSV field \(fields.count + 1): text after the closing quote")
                }
            } else {
                let start = index
                var bits: UInt64
                (index, bits) = firstCommaOrQuote(in: row, from: index)
                while index < row.count && row[index] != UInt8(ascii: ",") {
                    if row[index] == UInt8(ascii: "\"") {
                        throw FormatError(.record, "CSV field \(fields.count + 1): quote inside an unquoted field")
                    }
                    bits |= UInt64(row[index])
                    index += 1
                }
                field = Field(range: start..<index, hasEscapedQuote: false)
                ascii = bits & 0x8080_8080_8080_8080 == 0
            }
            let bytes = UnsafeBufferPointer(rebasing: row[field.range])
            guard fields.count == readField || (ascii ?? isASCII(bytes)) || String(validating: bytes, as: UTF8.self) != nil else {
                throw FormatError(.record, "CSV field \(fields.count + 1) is not valid UTF-8")
            }
            fields.append(field)
            if index == row.count { return fields }
            index += 1  // the comma
        }
    }

    /// The offset of the first `,` or `"` at or after `start` in `row` within its whole eight-byte
    /// blocks (SWAR), or the start of the last part block when the blocks hold neither; with the
    /// bytes before that offset ORed together (for their top bits).
    private static func firstCommaOrQuote(in row: UnsafeBufferPointer<UInt8>, from start: Int) -> (offset: Int, bits: UInt64) {
        guard let base = row.baseAddress else { return (start, 0) }
        let raw = UnsafeRawPointer(base)
        var offset = start
        var bits: UInt64 = 0
        while offset + 8 <= row.count {
            let chunk = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // A zero byte of `chunk ^ c` is a byte equal to c; the lowest flag is exact.
            let commas = chunk ^ 0x2C2C_2C2C_2C2C_2C2C
            let quotes = chunk ^ 0x2222_2222_2222_2222
            let found =
                ((commas &- 0x0101_0101_0101_0101) & ~commas | (quotes &- 0x0101_0101_0101_0101) & ~quotes)
                & 0x8080_8080_8080_8080
            if found != 0 {
                let before = found.trailingZeroBitCount &>> 3
                return (offset + before, bits | chunk & ((1 &<< UInt64(8 * before)) &- 1))
            }
            bits |= chunk
            offset += 8
        }
        return (offset, bits)
    }

    /// The offset of the first `"` at or after `start` in `row` (`memchr`: a drawing field is long
    /// and holds none), or `row.count`.
    private static func nextQuote(in row: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < row.count, let base = row.baseAddress, let quote = memchr(base + start, 0x22, row.count - start) else {
            return row.count
        }
        return base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether every byte of `bytes` is below 0x80, looked at eight bytes at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            high |= UInt64(raw[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `text` is one bracketed array of numbers only: it opens with `[`, its brackets
    /// balance and close only at its end, and it holds nothing but brackets, commas, blanks and
    /// number characters (so it cannot close the record or add keys).
    private static func isNumberArray(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        var end = text.count
        while start < end && (text[start] == 0x20 || text[start] == 0x09) { start += 1 }
        while end > start && (text[end - 1] == 0x20 || text[end - 1] == 0x09) { end -= 1 }
        guard start < end, text[start] == UInt8(ascii: "[") else { return false }
        let (below64, from64) = (numberArrayBytesBelow64, numberArrayBytesFrom64)
        var depth = 0
        for index in start..<end {
            let byte = text[index]
            guard byte < 0x80 else { return false }
            let allowed = byte < 0x40 ? below64 >> UInt64(byte) : from64 >> UInt64(byte - 0x40)
            guard allowed & 1 == 1 else { return false }
            if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 && index != end - 1 { return false }
                if depth < 0 { return false }
            }
        }
        return depth == 0
    }

    /// The bytes below 0x40 a drawing's text may hold, one bit each: tab, blank, `+`, `,`, `-`,
    /// `.` and the digits.
    private static let numberArrayBytesBelow64: UInt64 = {
        var bits: UInt64 = 0
        for byte in [0x09, 0x20] + Array(UInt8(ascii: "+")...UInt8(ascii: ".")) + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) {
            bits |= 1 << UInt64(byte)
        }
        return bits
    }()

    /// The bytes 0x40…0x7F a drawing's text may hold, one bit each (from 0x40): `E`, `[`, `]`, `e`.
    private static let numberArrayBytesFrom64: UInt64 = {
        var bits: UInt64 = 0
        for byte in "E[]e".utf8 { bits |= 1 << UInt64(byte - 0x40) }
        return bits
    }()

    /// Google's timestamp text for Kaggle's `YYYY-MM-DD HH:MM:SS[.f…]`; other text unchanged.
    package static func googleTimestamp(_ text: String) -> String {
        var text = text
        return text.withUTF8 { googleTimestamp(bytes: $0) } ?? text
    }

    /// Kaggle's timestamp up to the seconds, `0` standing for any digit.
    private static let timestampPattern = Array("0000-00-00 00:00:00".utf8)

    /// The pattern's bytes 0–7, 8–15 and 11–18, each checked with one eight-byte load.
    private static let timestampWindows = (TimestampWindow(offset: 0), TimestampWindow(offset: 8), TimestampWindow(offset: 11))

    /// Eight bytes of ``timestampPattern`` from `offset`: which must be digits, and the others.
    private struct TimestampWindow {
        let offset: Int
        /// 0x80 in each byte that must be a digit.
        let digits: UInt64
        /// 0xFF in each byte that must be `expected`'s.
        let others: UInt64
        let expected: UInt64

        init(offset: Int) {
            var (digits, others, expected): (UInt64, UInt64, UInt64) = (0, 0, 0)
            for (place, byte) in KaggleCSV.timestampPattern[offset..<(offset + 8)].enumerated() {
                let shift = UInt64(8 * place)
                if byte == UInt8(ascii: "0") {
                    digits |= 0x80 << shift
                } else {
                    others |= 0xFF << shift
                    expected |= UInt64(byte) << shift
                }
            }
            (self.offset, self.digits, self.others, self.expected) = (offset, digits, others, expected)
        }

        /// Whether the eight bytes at `base + offset` fit the window (at least `offset + 8` bytes
        /// are there).
        func fits(_ base: UnsafeRawPointer) -> Bool {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // Per byte, with no carry or borrow between bytes: top bit set when the low seven bits
            // are at least 0x30, and when they are at least 0x3A; a digit has the first, not the
            // second, and no top bit of its own.
            let atLeastZero = (word | 0x8080_8080_8080_8080) &- 0x3030_3030_3030_3030
            let aboveNine = (word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x4646_4646_4646_4646
            let isDigit = atLeastZero & ~aboveNine & ~word & 0x8080_8080_8080_8080
            return isDigit & digits == digits && (word ^ expected) & others == 0
        }
    }

    /// Google's timestamp text for the Kaggle timestamp `bytes`, or nil when they have another form.
    private static func googleTimestamp(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let seconds = timestampPattern.count
        guard bytes.count >= seconds, let base = bytes.baseAddress else { return nil }
        let windows = timestampWindows
        guard windows.0.fits(base), windows.1.fits(base), windows.2.fits(base) else { return nil }
        var fraction = bytes[seconds...]
        if !fraction.isEmpty {
            guard fraction.first == UInt8(ascii: "."), fraction.count >= 2, fraction.count <= 10,
                fraction.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return nil }
            while fraction.last == UInt8(ascii: "0") { fraction = fraction.dropLast() }
            if fraction.count == 1 { fraction = fraction.dropLast() }
        }
        let length = seconds + fraction.count + 4
        return String(unsafeUninitializedCapacity: length) { text in
            let text = UnsafeMutableRawBufferPointer(text)
            text.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<(seconds + fraction.count)]))
            let zone: StaticString = " UTC"
            UnsafeMutableRawBufferPointer(rebasing: text[(length - 4)...]).copyMemory(
                from: UnsafeRawBufferPointer(start: zone.utf8Start, count: 4))
            return length
        }
    }
}
