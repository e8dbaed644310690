import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// How a `RecordStage` wants its records.
package enum RecordStageInput: Sendable {
    /// Full drawings, with timestamps when the reader keeps them; `strokes` is empty.
    case drawings
    /// Points only, in flat storage (`strokes`); the record's `drawing` is empty. Cheaper.
    case flatPoints
}

/// What a record stream does with each record: turns it into bytes, tensors or pixels. The
/// stage itself is only a description (settings); each batch gets fresh state from `makeBatch`
/// on the worker thread that processes it, so that state may hold scratch space or a renderer.
package protocol RecordStage: Sendable {
    /// The per-batch state.
    associatedtype Batch: RecordStageBatch
    /// How records arrive.
    var input: RecordStageInput { get }
    /// Fresh state for a batch of `lineCount` lines of an input read as `format`.
    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch
    /// Fresh state for a batch of `lineCount` lines of input chunk `chunk` read as `format`, for
    /// stages whose work depends on the chunk (by default `makeBatch(lineCount:format:)`).
    func makeBatch(lineCount: Int, format: DrawingFileFormat, chunk: Int) -> Batch
}

extension RecordStage {
    package func makeBatch(lineCount: Int, format: DrawingFileFormat, chunk: Int) -> Batch {
        makeBatch(lineCount: lineCount, format: format)
    }
}

/// The state of a `RecordStage` over one batch: takes the batch's records in order and yields
/// the batch's output, which the writer receives on the calling thread in input order.
package protocol RecordStageBatch {
    /// The output of one batch.
    associatedtype Output: Sendable
    /// Appends what `record` (parsed from `line` at `location`) becomes to the output; a record
    /// the stage refuses (over a processing bound such as the resampling caps, or one its output
    /// cannot hold) throws and is quarantined instead, with nothing appended.
    mutating func process(
        _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
        location: SourceLocation) throws(StageRejection)
    /// The output after the last record.
    var output: Output { get }
    /// Seconds the batch spent simplifying and encoding (`StageClock`; by default none measured).
    var seconds: StageSeconds { get }
}

extension RecordStageBatch {
    package var seconds: StageSeconds { StageSeconds() }
}

/// Why a stage refuses a record: the reason, and the bytes to quarantine when they are not the
/// line as read (nil).
package struct StageRejection: Error {
    package var reason: String
    package var quarantinedBytes: [UInt8]?

    /// A refusal for `reason`, quarantining `quarantinedBytes` (nil: the line as read).
    package init(_ reason: String, quarantinedBytes: [UInt8]? = nil) {
        self.reason = reason
        self.quarantinedBytes = quarantinedBytes
    }

    /// A record over a processing bound.
    package init(_ limit: DrawingLimitError) { self.init(limit.reason) }

    /// The result of `body`, a step of a stage that refuses a record over a processing bound
    /// with `DrawingLimitError`, which becomes the stage's refusal.
    package static func overLimit<Result>(_ body: () throws(DrawingLimitError) -> Result) throws(StageRejection) -> Result {
        do throws(DrawingLimitError) { return try body() } catch { throw StageRejection(error) }
    }
}

/// What a record stream did.
package struct RecordStreamResult: Sendable {
    /// Reconciled counts.
    package var tally: RecordCounts
    /// Rejections grouped by reason kind (see `QuarantineWriter.countsByReason`).
    package var rejectedByReason: [String: Int]
    /// Stored input bytes consumed.
    package var inputBytes: Int
    /// Wall-clock seconds of the run (not reproducible; reports keep it out of their JSON).
    package var seconds: Double
}

/// The streaming engine: source → stage → sink. A source's batches (``InputBatches`` of drawing
/// chunks, or groups of image files) are processed on `jobs` threads (`OrderedParallelMap`) by a
/// worker (``DrawingBatchWork`` for drawings, ``ImageBatchWork`` for images) into
/// ``BatchOutcome``s, which the sink receives on the calling thread in input order, so the output
/// bytes are the same for every job count. The commands use it through a ``DrawingSource``
/// (``run(_:quarantinePath:write:)``, where the stream is the one place where rejected lines and
/// source errors reach the quarantine, the tally is kept and progress is shown); the preprocess
/// map side drives it with its chunk selection and a sorted-run sink
/// (``drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``). It keeps the read path's rules
/// (`DrawingSource`): unreadable directory entries first, byte order marks skipped, damaged gzip
/// members as source errors after the records they still hold, and an error when no input at
/// all could be opened.
///
/// Memory is bounded: at most `2 × jobs + 2` batches (each `linesPerBatch` lines of at most
/// `DrawingSource.maximumLineLength` bytes) and their outputs are held at once.
package struct RecordStream: Sendable {
    /// The inputs.
    package var reader: DrawingSource
    /// Worker threads (1: everything runs on the calling thread).
    package var jobs: Int
    /// Lines per batch: the unit of parallel work.
    package var linesPerBatch = InputBatches.defaultLinesPerBatch
    /// Whether streams (stdin, pipes) are copied to a temporary file first so that their format is
    /// told by content (`DrawingSource.engineInputs(spoolingStreams:)`); otherwise they are NDJSON
    /// unless the reader's format says otherwise.
    package var spoolsStreams = false
    /// Whether progress is printed on stderr.
    package var showsProgress: Bool
    /// Whether the first 20 rejected lines are printed on stderr one by one (the quarantine
    /// summary is printed either way).
    package var printsRejections = true

    /// Creates a stream over `reader`'s inputs.
    package init(reader: DrawingSource, jobs: Int, showsProgress: Bool) {
        self.reader = reader
        self.jobs = max(1, jobs)
        self.showsProgress = showsProgress
    }

    /// Runs `stage` over every record; rejected lines go to `quarantinePath` (nil: only counted
    /// and reported); `write` receives each batch's output in input order on the calling thread.
    /// Throws what `write` or the quarantine file throws, and `FormatError` when no input could be
    /// opened (``FormatError/Kind/noInputReadable``).
    package func run<Stage: RecordStage>(
        _ stage: Stage, quarantinePath: String?,
        write: (Stage.Batch.Output) throws -> Void
    ) throws -> RecordStreamResult {
        let quarantine = makeQuarantine(path: quarantinePath)
        let result = try run(stage, quarantine: quarantine) { output, _ in try write(output) }
        try quarantine.finish()
        return result
    }

    /// The quarantine writer for `path`, printing the first rejections if `printsRejections`;
    /// for runs that stream several inputs into one quarantine (`finish()` it at the end).
    package func makeQuarantine(path: String?) -> QuarantineWriter {
        QuarantineWriter(path: path, maximumMessages: printsRejections ? 20 : 0)
    }

    /// Runs `stage` like `run(_:quarantinePath:write:)`, adding rejected lines to `quarantine`.
    /// `write` may reject records of the batch it receives after all (`reject`: the line moves
    /// from written to rejected), for decisions that need the whole stream so far.
    package func run<Stage: RecordStage>(
        _ stage: Stage, quarantine: QuarantineWriter,
        write: (Stage.Batch.Output, _ reject: (RejectedLine) throws -> Void) throws -> Void
    ) throws -> RecordStreamResult {
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: showsProgress)
        let rejectedBefore = quarantine.countsByReason
        var tally = RecordCounts()
        for rejected in reader.rejectedSourceErrors { try tally.reject(rejected, into: quarantine) }
        let (inputs, unreadable, spooled) = try reader.engineInputs(spoolingStreams: spoolsStreams)
        defer { DrawingSource.removeSpooled(spooled) }
        for rejected in unreadable { try tally.reject(rejected, into: quarantine) }
        let batches = reader.batches(of: inputs, linesPerBatch: linesPerBatch)
        var work = DrawingBatchWork(stage: stage, chunks: inputs.map { ($0.name, $0.format) })
        work.keepsTimestamps = reader.keepsTimestamps
        work.maximumLineLength = reader.maximumLineLength
        func consume(_ outcome: BatchOutcome<Stage.Batch.Output>) throws {
            let name = inputs[outcome.chunk].name
            for rejection in outcome.rejections { try quarantine.add(rejection.rejectedLine(inFile: name)) }
            tally.add(outcome.counts)
            try write(outcome.output) { line in
                tally.written -= 1
                tally.read -= 1
                try tally.reject(line, into: quarantine)
            }
        }
        try Self.drive(
            batches, jobs: jobs, progress: progress, consumedBytes: { batches.consumedBytes }, work: work.callAsFunction,
            consume: consume)
        try reader.requireAnInputOpened(in: batches, refused: unreadable.count)
        var rejectedByReason: [String: Int] = [:]
        for (reason, count) in quarantine.countsByReason where count != rejectedBefore[reason] {
            rejectedByReason[reason] = count - (rejectedBefore[reason] ?? 0)
        }
        return RecordStreamResult(
            tally: tally, rejectedByReason: rejectedByReason,
            inputBytes: batches.consumedBytes, seconds: progress.elapsedSeconds)
    }

    /// The engine's loop: `work` turns each of `batches` into its ``BatchOutcome`` on `jobs`
    /// threads, and `consume` receives the outcomes in input order on the calling thread, with
    /// progress shown on `progress` (records, and `consumedBytes` of the input) and finished at
    /// the end. At most `maxInFlight` batches and outcomes are held at once (default
    /// `2 × jobs + 2`; the preprocess map side, whose raster batches may hold one 64 MiB record,
    /// keeps `2 × jobs`, and streams of small image batches more, `BatchSizing.inFlight`:
    /// docs/limits.md). Rethrows the first error `work` or `consume` throws.
    package static func drive<Batches: Sequence, Output: Sendable>(
        _ batches: Batches, jobs: Int, maxInFlight: Int? = nil, progress: ProgressReporter, consumedBytes: () -> Int?,
        work: @escaping @Sendable (Batches.Element) throws -> BatchOutcome<Output>,
        consume: (BatchOutcome<Output>) throws -> Void
    ) throws where Batches.Element: Sendable {
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: maxInFlight ?? 2 * max(1, jobs) + 2, transform: work)
        try map.run(batches) { outcome in
            try consume(outcome)
            progress.advance(by: outcome.counts.read)
            if let bytes = consumedBytes() { progress.update(bytesConsumed: bytes) }
        }
        progress.finish()
    }
}
