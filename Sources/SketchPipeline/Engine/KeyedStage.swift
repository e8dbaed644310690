import SketchCore
import SketchFormats

/// A stage that also yields, for each record its inner stage writes, the record's key_id and word
/// in output order: the rows of `X.keys.csv` (``KeysCSVWriter``) beside the `X.npy` of `encode`
/// and `bitmap`. A record the inner stage refuses yields no row.
struct KeyedStage<Inner: RecordStage>: RecordStage {
    /// The stage whose output rows are keyed.
    var inner: Inner
    var input: RecordStageInput { inner.input }

    /// The header of the keys file.
    static var header: [String] { ["key_id", "word"] }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(inner: inner.makeBatch(lineCount: lineCount, format: format))
    }

    struct Batch: RecordStageBatch {
        var inner: Inner.Batch
        private(set) var keys: [[String]] = []

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            try inner.process(record, strokes: strokes, line: line, location: location)
            keys.append([record.keyID, record.word])
        }

        var output: (rows: Inner.Batch.Output, keys: [[String]]) { (inner.output, keys) }
    }
}
