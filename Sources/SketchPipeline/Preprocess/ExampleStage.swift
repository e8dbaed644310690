import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// The preprocess map side's stage for drawings: each record encoded by an encode stage (`inner`,
/// one of the set the commands use, ``EncodingBatch``), its encoding made a payload
/// (`payload`), then an example in its final label-free bytes (``ExampleBody``) with its sort
/// key, chunk, line and split. A record over a processing bound, or one its encoding or example
/// cannot hold, is refused and quarantined. The records of a stroke-3 input keep their own split
/// (``PipelineRunner/ownSplit(of:isStroke3Input:)``); every other record gets the split rule's.
struct ExampleStage<Inner: RecordStage>: RecordStage where Inner.Batch: EncodingBatch {
    var inner: Inner
    /// One record's payload from its encoding.
    var payload: @Sendable (Inner.Batch.Encoded) -> TensorPayload
    var encoding: ExampleBody.Encoding
    var seed: UInt64
    var split: DatasetSplit
    var input: RecordStageInput { inner.input }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        makeBatch(lineCount: lineCount, format: format, chunk: 0)
    }

    func makeBatch(lineCount: Int, format: DrawingFileFormat, chunk: Int) -> Batch {
        Batch(
            stage: self, inner: inner.makeBatch(lineCount: lineCount, format: format, chunk: chunk), chunk: chunk,
            isStroke3Input: format == .stroke3)
    }

    struct Batch: RecordStageBatch {
        let stage: ExampleStage
        var inner: Inner.Batch
        let chunk: Int
        let isStroke3Input: Bool
        /// One fragment encoder per batch, reused for every example (sketch-rnn `.npz` only).
        let fragments: DeflateFragmentEncoder?
        private var mapped = MappedExamples()
        var output: MappedExamples { mapped.sorted() }
        private(set) var seconds = StageSeconds()

        init(stage: ExampleStage, inner: Inner.Batch, chunk: Int, isStroke3Input: Bool) {
            self.stage = stage
            self.inner = inner
            self.chunk = chunk
            self.isStroke3Input = isStroke3Input
            fragments = stage.encoding.format.entry.deflatesBodies ? try? DeflateFragmentEncoder() : nil
        }

        /// `location.line` is the record's line within its chunk: the example's ordinal.
        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            var t = MonotonicClock.now()
            let drawing = try inner.prepare(record)
            seconds.simplify += MonotonicClock.lap(&t)
            let payload = stage.payload(try inner.encode(drawing, of: record, line: line))
            let body: ExampleBody
            do {
                body = try ExampleBody.make(
                    payload: payload, keyID: record.keyID, word: record.word,
                    facts: RecordFacts(countryCode: record.countryCode, recognized: record.recognized, timestamp: record.timestamp),
                    encoding: stage.encoding, fragments: fragments)
            } catch {
                throw StageRejection("\(error)")
            }
            mapped.append(
                SortedExample(
                    sortKey: SortKey.of(keyID: record.keyID, seed: stage.seed), keyID: record.keyID, chunk: UInt32(chunk),
                    ordinal: UInt64(location.line), word: record.word,
                    split: PipelineRunner.ownSplit(of: record, isStroke3Input: isStroke3Input) ?? stage.split.split(forKeyID: record.keyID),
                    body: body))
            seconds.encode += MonotonicClock.lap(&t)
        }
    }
}
