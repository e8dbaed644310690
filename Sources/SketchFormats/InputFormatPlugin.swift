import SketchCore

/// What an input format says about the drawings it holds: the declaration
/// `InputFormat.needsSimplification(_:readAs:)` (SketchPipeline) asks under `--input-format auto`.
package enum DrawingsDeclaration: Sendable {
    /// Every drawing is already simplified by Google (`.bin`).
    case alwaysSimplified
    /// Every drawing is raw (SVG).
    case alwaysRaw
    /// Drawings are used as they are, never simplified (stroke-3).
    case takenAsTheyAre
    /// Each record says what it is (`SketchRecord.kind`, decided from its line as decoded: NDJSON, CSV).
    case perRecord
}

/// What a chunk's batch reader is asked to read (``InputFormatPlugin/batchReader(_:)``).
package struct BatchReaderRequest {
    /// The input (`-` for standard input).
    package var path: String
    /// The stored byte range to read; nil: the whole input.
    package var range: Range<Int>?
    /// Index of the chunk in the run's chunk list (``RawLineBatch/chunk``).
    package var chunk: Int
    /// Whether to compute the SHA-256 of the stored bytes.
    package var hashing: Bool
    /// The word of records that carry none (``InputFormatPlugin/word(ofFile:given:)``).
    package var word: String
    /// Longest line a line-based format accepts.
    package var maximumLineLength: Int
    /// Most entries in one batch.
    package var batchLines: Int
    /// Stop after this many records (`--limit`); nil: read everything.
    package var recordLimit: Int?
}

/// The scratch space of one worker's decoder, reused from entry to entry: the NDJSON parser (its
/// number buffers), the flat strokes, and a buffer for quarantine forms.
package struct RecordDecodingScratch {
    /// The parser of NDJSON lines and of drawing arrays (CSV); it knows whether `t` arrays are kept.
    package var parser: QuickDrawLineParser
    /// Whether records hand their points in ``strokes`` (their own `drawing` empty).
    package let flatPoints: Bool
    /// The flat points of the last record decoded (with ``flatPoints``).
    package var strokes = FlatStrokes()
    /// Bytes a plug-in may build in (a quarantine form, a drawing with its closing brace).
    package var bytes: [UInt8] = []
    /// Positions a plug-in may build a drawing's points in before cutting them into strokes (stroke-3).
    package var positions = (x: [Double](), y: [Double]())

    /// Scratch for a decoder that keeps `t` arrays when `keepsTimestamps` and hands flat points when `flatPoints`.
    package init(keepsTimestamps: Bool, flatPoints: Bool) {
        parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        self.flatPoints = flatPoints
    }

    /// `record` as the decoder hands it out: with ``flatPoints``, its points moved into
    /// ``strokes`` and its `drawing` emptied (its `kind` kept); without times unless the parser
    /// keeps them. Its kind is the one it was decoded with.
    package mutating func deliver(_ record: SketchRecord) -> SketchRecord {
        var delivered = record
        if flatPoints {
            strokes.replaceContents(with: record.drawing, keepingTimes: parser.keepsTimestamps)
            delivered.drawing = Drawing(strokes: [])
        } else if !parser.keepsTimestamps && record.drawing.strokes.contains(where: { !$0.t.isEmpty }) {
            delivered.drawing = Drawing(strokes: record.drawing.strokes.map { Stroke(x: $0.x, y: $0.y) })
        } else {
            return record
        }
        delivered.kind = record.kind
        return delivered
    }
}

/// What a plug-in makes of one entry of a batch.
package enum PluginDecoding {
    /// A record (as ``RecordDecodingScratch/deliver(_:)`` hands it out) and its quarantine form.
    case record(SketchRecord, RecordLine)
    /// Not a usable record: the reason, and the bytes to quarantine (nil: the entry's bytes).
    case rejected(reason: String, bytes: [UInt8]?)
    /// The entry shows the input cannot be read (a reason at byte 0).
    case sourceError(reason: String)
}

/// One input format as a plug-in: everything SketchPrep knows of a format, in one type, listed in
/// ``InputFormatRegistry/entries``. The reading thread only cuts the input into raw batches
/// (``batchReader(_:)``: lines, record blocks, a file's bytes); the engine's workers turn each
/// entry into a record (``decode(_:in:with:)``).
package protocol InputFormatPlugin: SendableMetatype {
    /// The format's name (`--format`, manifests).
    static var format: DrawingFileFormat { get }
    /// File name endings a directory is searched for (not recursive).
    static var fileSuffixes: [String] { get }
    /// File name endings searched for at every level below a directory.
    static var recursiveFileSuffixes: [String] { get }
    /// Whether a large plain input can be cut into newline-aligned byte-range chunks.
    static var cutsByteRanges: Bool { get }
    /// Whether its drawings are raw or simplified (``DrawingsDeclaration``).
    static var drawings: DrawingsDeclaration { get }
    /// Whether `bytes`, the first (decoded) bytes of an input, are in this format
    /// (asked in ``InputFormatRegistry/entries`` order).
    static func detects(_ bytes: [UInt8]) -> Bool
    /// What ``detects(_:)`` answers for every input that starts with `prefix` (more bytes follow
    /// it, up to the sniffed length): true or false when `prefix` alone decides, nil when the
    /// rule needs the whole sniff. Lets detection stop after the first bytes of a large input.
    static func decides(prefix: [UInt8]) -> Bool?
    /// The word of the records of `file`, `given` the one the user named (`--word`); empty when
    /// records carry their own.
    static func word(ofFile file: String, given: String?) -> String
    /// The reading side: the chunk's raw batches (its entries' bytes undecoded).
    static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading
    /// The worker side: the record of one `line` entry's `bytes` of `batch`.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding
}

extension InputFormatPlugin {
    package static var recursiveFileSuffixes: [String] { [] }
    package static func decides(prefix: [UInt8]) -> Bool? { nil }
    package static var cutsByteRanges: Bool { false }
}
