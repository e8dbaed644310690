import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// The worker side of the engine for drawings: one batch of input lines (``RawLineBatch``) decoded
/// (``RecordBatchDecoder``), filtered and handed record by record to a stage, with the batch's
/// counts, rejections in line order and stage seconds (``BatchOutcome``). The one loop every
/// command and the preprocess map side run on their worker threads; safe to run on any thread
/// (each call has a decoder and stage state of its own while it runs).
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
    /// Whether the seconds spent decoding are measured (`timings.json`'s `parse`: two clock reads
    /// per record).
    package var timesParsing = true
    /// Decoders of finished batches, with their scratch space grown, for the next batches made
    /// with the same settings: a worker decoding many small batches (one per small input file)
    /// would otherwise grow a new decoder's buffers for each. At most one per thread that ran this
    /// work at once.
    private let decoders = LockedValue<[(settings: DecoderSettings, decoder: RecordBatchDecoder)]>([])

    private struct DecoderSettings: Equatable {
        var keepsTimestamps: Bool
        var flatPoints: Bool
        var maximumLineLength: Int
    }

    /// A worker running `stage` over batches of `chunks`.
    package init(stage: Stage, chunks: [(name: String, format: DrawingFileFormat)]) {
        self.stage = stage
        self.chunks = chunks
    }

    /// Decodes and processes `batch`.
    package func callAsFunction(_ batch: RawLineBatch) -> BatchOutcome<Stage.Batch.Output> {
        let chunk = chunks[batch.chunk]
        let settings = DecoderSettings(
            keepsTimestamps: keepsTimestamps, flatPoints: stage.input == .flatPoints, maximumLineLength: maximumLineLength)
        var decoder =
            decoders.withLock { kept in kept.lastIndex { $0.settings == settings }.map { kept.remove(at: $0).decoder } }
            ?? RecordBatchDecoder(
                keepsTimestamps: settings.keepsTimestamps, flatPoints: settings.flatPoints, maximumLineLength: settings.maximumLineLength)
        defer { decoders.withLock { $0.append((settings, decoder)) } }
        var state = stage.makeBatch(lineCount: batch.entries.count, format: chunk.format, chunk: batch.chunk)
        var counts = RecordCounts()
        var rejections: [BatchRejection] = []
        var seconds = StageSeconds()
        var seenWords = ClassWords()
        var seenCountries: Set<String> = []
        let timesParsing = timesParsing
        var t = timesParsing ? MonotonicClock.now() : 0
        decoder.decode(batch) { entry, decoded, strokes in
            defer { if timesParsing { t = MonotonicClock.now() } }
            if timesParsing { seconds.parse += MonotonicClock.lap(&t) }
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
