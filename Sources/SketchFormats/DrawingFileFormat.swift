import SketchCore

/// The drawing file formats SketchPrep reads, and the content rule of `--format auto`.
public enum DrawingFileFormat: String, Sendable, CaseIterable, Codable {
    /// Quick, Draw! NDJSON, raw or simplified (plain or gzip).
    case ndjson
    /// Google's binary `.bin` layout (plain or gzip); the word comes from the file name.
    case bin
    /// sketch-rnn stroke-3 `.npz` (a zip of pickled object arrays, or the flat layout).
    case stroke3
    /// Kaggle's Quick, Draw! competition CSV (`KaggleCSV`; plain or gzip).
    case csv
    /// An SVG vector sketch, one drawing per file (`SVGSketch`); the word is the parent directory's name.
    case svg

    /// Bytes looked at to decide.
    static let sniffLength = 1 << 20

    /// The format of `bytes`, the first (decoded) bytes of an input, by content alone:
    /// 1. stroke-3 when they start with the zip magic `PK\x03\x04`;
    /// 2. NDJSON when the first non-blank byte is `{` and one of the first 8 non-blank lines
    ///    parses as a Quick, Draw! record (or the first line is longer than the sniffed bytes);
    /// 3. CSV when the first line is one of Kaggle's two headers (`KaggleCSV.Layout`);
    /// 4. SVG when the first non-blank byte (after a byte order mark) is `<` and the bytes hold `<svg`;
    /// 5. `.bin` when the first records (up to 4) are structurally consistent: at least one
    ///    stroke, `recognized` 0 or 1, an ASCII country, every stroke with at least one point, and
    ///    at least one complete record (or the sniffed bytes end inside the first);
    /// otherwise nil.
    package static func detect(_ bytes: [UInt8]) -> DrawingFileFormat? {
        if Stroke3NPZ.hasZipMagic(bytes) { return .stroke3 }
        if let first = bytes.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }), bytes[first] == 0x7B,
            looksLikeNDJSON(bytes[first...])
        {
            return .ndjson
        }
        if KaggleCSV.layout(ofHeader: bytes.prefix { $0 != 0x0A }) != nil { return .csv }
        if looksLikeSVG(bytes) { return .svg }
        return looksLikeGoogleBinary(bytes) ? .bin : nil
    }

    private static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard body.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) == UInt8(ascii: "<") else { return false }
        let tag = Array("<svg".utf8)
        return body.indices.contains { body[$0...].starts(with: tag) }
    }

    private static func looksLikeNDJSON(_ bytes: ArraySlice<UInt8>) -> Bool {
        var parser = QuickDrawLineParser(keepsTimestamps: false)
        var checked = 0
        var start = bytes.startIndex
        while start < bytes.endIndex && checked < 8 {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                // The last sniffed line: judge it only if the input ended there.
                return checked == 0 && bytes.count >= sniffLength
                    || bytes.count < sniffLength && parses(&parser, bytes[start...])
            }
            let line = bytes[start..<newline]
            start = newline + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            checked += 1
            if parses(&parser, line) { return true }
        }
        return false
    }

    private static func parses(_ parser: inout QuickDrawLineParser, _ line: ArraySlice<UInt8>) -> Bool {
        var trimmed = line
        if trimmed.last == 0x0D { trimmed = trimmed.dropLast() }
        return Array(trimmed).withUnsafeBufferPointer { (try? parser.parse($0)) != nil }
    }

    private static func looksLikeGoogleBinary(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        var complete = 0
        while complete < 4 {
            guard offset + GoogleBinaryFormat.headerLength <= bytes.count else { break }
            if bytes[offset + 10] > 1 || bytes[offset + 8] >= 0x80 || bytes[offset + 9] >= 0x80 { return false }
            let strokes = Int(bytes[offset + 15]) | Int(bytes[offset + 16]) << 8
            if strokes == 0 { return false }
            offset += GoogleBinaryFormat.headerLength
            for _ in 0..<strokes {
                guard offset + 2 <= bytes.count else { return bytes.count >= sniffLength && complete == 0 }
                let points = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
                if points == 0 { return false }
                offset += 2 + 2 * points
                if offset > bytes.count { return bytes.count >= sniffLength && complete == 0 }
            }
            complete += 1
            if offset == bytes.count { break }
        }
        return complete > 0
    }
}

extension DrawingFileFormat {
    /// The engine's batch reader of one chunk of an input in this format: `InputChunkReader`
    /// (NDJSON), `CSVLineBatches` (CSV) or `DecodedRecordBatches` (`.bin`, stroke-3, SVG; always the
    /// whole input, `range` nil). `word` is the word of records that carry none.
    package func batchReader(
        path: String, range: Range<Int>?, chunk: Int, hashing: Bool, word: String,
        maximumLineLength: Int = DrawingLimits.maximumLineBytes, batchLines: Int = 1024,
        recordLimit: Int?
    ) -> any LineBatchReading {
        switch self {
        case .ndjson:
            return InputChunkReader(
                path: path, range: range, chunk: chunk, hashing: hashing, maximumLineLength: maximumLineLength,
                batchLines: batchLines, recordLimit: recordLimit)
        case .csv:
            return CSVLineBatches(
                path: path, range: range, chunk: chunk, hashing: hashing, word: word, maximumLineLength: maximumLineLength,
                batchLines: batchLines, recordLimit: recordLimit)
        case .bin, .stroke3, .svg:
            return DecodedRecordBatches(
                path: path, format: self, word: word, chunk: chunk, hashing: hashing, batchLines: batchLines,
                recordLimit: recordLimit)
        }
    }
}
