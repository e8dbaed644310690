import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// The worker side of the engine for drawings: one batch of input lines (``RawLineBatch``) decoded
/// (``RecordBatchDecoder``), filtered and handed record by record to a stage, with the batch's
/// counts, rejections in line order and stage seconds (``BatchOutcome``). The one loop every
/// command and the preprocess map side run on their worker threads; safe to run on any thread
/// (each call has its own decoder and stage state).
package struct DrawingBatchWork<Stage: RecordStage>: Sendable {
    /// What each record becomes.
    package var stage: Stage
    /// Per chunk (the batch's `chunk` indexes it): its name for the stage's locations and its format.
    package var chunks: [(name: String, format: DrawingFileFormat)]
    /// The per-record filters (`filters:`); records they refuse count as filtered and skip the stage.
    package var filter: RecordFilter?
    /// Whether the words of every record read are collected (a category filter's check).
    package var tracksWords = false
    /// Whether the country codes of every record read are collected (a country filter's check).
    package var tracksCountries = false
    /// Whether records keep their strokes' timestamps.
    package var keepsTimestamps = true
    /// The line length limit an overlong line went over, for its reason.
    package var maximumLineLength = DrawingLimits.maximumLineBytes

    /// A worker running `stage` over batches of `chunks`.
    package init(stage: Stage, chunks: [(name: String, format: DrawingFileFormat)]) {
        self.stage = stage
        self.chunks = chunks
    }

    /// Decodes and processes `batch`.
    package func callAsFunction(_ batch: RawLineBatch) -> BatchOutcome<Stage.Batch.Output> {
        let chunk = chunks[batch.chunk]
        var decoder = RecordBatchDecoder(
            keepsTimestamps: keepsTimestamps, flatPoints: stage.input == .flatPoints, maximumLineLength: maximumLineLength)
        var state = stage.makeBatch(lineCount: batch.entries.count, format: chunk.format, chunk: batch.chunk)
        var counts = RecordCounts()
        var rejections: [BatchRejection] = []
        var seconds = StageSeconds()
        var seenWords = ClassWords()
        var seenCountries: Set<String> = []
        var t = MonotonicClock.now()
        decoder.decode(batch) { entry, decoded, strokes in
            defer { t = MonotonicClock.now() }
            seconds.parse += MonotonicClock.lap(&t)
            switch decoded {
            case let .record(record, line):
                counts.read += 1
                if tracksWords { seenWords.insert(record.word) }
                if tracksCountries { seenCountries.insert(record.countryCode) }
                if let filter, !filter.accepts(record) {
                    counts.filtered += 1
                    return true
                }
                do throws(StageRejection) {
                    try state.process(
                        record, strokes: strokes, line: line, location: SourceLocation(file: chunk.name, line: entry.lineInChunk))
                    counts.written += 1
                } catch {
                    counts.rejected += 1
                    rejections.append(
                        .record(lineInChunk: entry.lineInChunk, reason: error.reason, bytes: error.quarantinedBytes ?? Array(line)))
                }
            case let .rejected(reason, bytes):
                counts.read += 1
                counts.rejected += 1
                rejections.append(.record(lineInChunk: entry.lineInChunk, reason: reason, bytes: Array(bytes)))
            case let .sourceError(byteOffset, reason):
                counts.sourceErrors += 1
                rejections.append(.sourceError(byteOffset: byteOffset, reason: reason))
            }
            return true
        }
        var outcome = BatchOutcome(chunk: batch.chunk, output: state.output)
        outcome.counts = counts
        outcome.rejections = rejections
        seconds.simplify = state.seconds.simplify
        seconds.encode = state.seconds.encode
        outcome.seconds = seconds
        outcome.seenWords = seenWords
        outcome.seenCountries = seenCountries
        return outcome
    }
}
