import SketchCore

/// The drawing file formats SketchPrep reads: the names of the plug-ins of
/// ``InputFormatRegistry``, where everything else about each format is.
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

    /// Bytes looked at first, then more: the rest of the sniff is read only when these leave the
    /// answer open (``detect(prefix:)``). The first 4 KiB hold a whole line of most NDJSON files
    /// (the shared raw lines average 3.7 KB), so that a read of many small files does not copy
    /// 64 KiB of each twice (the sniff's 64 KiB were 4.5 % of the CPU of a `sketchprep.read` of
    /// the shared raw files, 238 of them).
    static let quickSniffLengths = [4 << 10, 64 << 10]

    /// The format of `bytes`, the first (decoded) bytes of an input, by content alone: the first
    /// entry of ``InputFormatRegistry/entries`` whose rule (`InputFormatPlugin.detects`) matches:
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
        InputFormatRegistry.entries.first { $0.detects(bytes) }?.format
    }

    /// What ``detect(_:)`` answers for every input that starts with `prefix` and goes on past it,
    /// when the rules asked in order decide on `prefix` alone (`InputFormatPlugin.decides(prefix:)`);
    /// nil when the whole sniff is needed.
    package static func detect(prefix: [UInt8]) -> DrawingFileFormat? {
        for entry in InputFormatRegistry.entries {
            switch entry.decides(prefix: prefix) {
            case true?: return entry.format
            case false?: continue
            case nil: return nil
            }
        }
        return nil
    }

    /// The engine's batch reader of one chunk of an input in this format (its plug-in's
    /// ``InputFormatPlugin/batchReader(_:)``; `range` nil: the whole input). `word` is the word
    /// of records that carry none.
    package func batchReader(
        path: String, range: Range<Int>?, chunk: Int, hashing: Bool, word: String,
        maximumLineLength: Int = DrawingLimits.maximumLineBytes, batchLines: Int = 1024,
        recordLimit: Int?
    ) -> any LineBatchReading {
        plugin.batchReader(
            BatchReaderRequest(
                path: path, range: range, chunk: chunk, hashing: hashing, word: word, maximumLineLength: maximumLineLength,
                batchLines: batchLines, recordLimit: recordLimit))
    }
}
