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

/// The streaming engine for drawings: reads each input in batches of NDJSON lines
/// (``InputBatches``, formats as `DrawingSource.engineInputs` decides), decodes
/// (``RecordBatchDecoder``) and processes the batches on `jobs` threads (`OrderedParallelMap`),
/// and hands the batch outputs to the writer in input order, so the output bytes are the same
/// for every job count. The one place where rejected lines and source errors reach the
/// quarantine, the tally is kept and progress is shown; it keeps the read path's rules
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
    package var linesPerBatch = 1024
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
        let batches = InputBatches(
            sources: inputs.map(\.batchSource), selected: Array(inputs.indices), hashing: false,
            maximumLineLength: reader.maximumLineLength, linesPerBatch: linesPerBatch,
            recordLimit: reader.recordLimitPerInput)
        let (keepsTimestamps, maximumLineLength) = (reader.keepsTimestamps, reader.maximumLineLength)
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: 2 * jobs + 2) { (batch: RawLineBatch) in
            Self.process(
                batch, of: inputs[batch.chunk], with: stage,
                keepsTimestamps: keepsTimestamps, maximumLineLength: maximumLineLength)
        }
        try map.run(batches) { result in
            for line in result.rejected { try tally.reject(line, into: quarantine) }
            tally.read += result.written
            var late = 0
            try write(result.output) { line in
                late += 1
                tally.read -= 1
                try tally.reject(line, into: quarantine)
            }
            tally.written += result.written - late
            progress.update(bytesConsumed: batches.consumedBytes)
            progress.advance(by: result.written + result.rejected.count)
        }
        progress.finish()
        try batches.requireAnInputOpened(refused: unreadable.count, count: reader.files.count + reader.rejectedSources.count)
        var rejectedByReason: [String: Int] = [:]
        for (reason, count) in quarantine.countsByReason where count != rejectedBefore[reason] {
            rejectedByReason[reason] = count - (rejectedBefore[reason] ?? 0)
        }
        return RecordStreamResult(
            tally: tally, rejectedByReason: rejectedByReason,
            inputBytes: batches.consumedBytes, seconds: progress.elapsedSeconds)
    }

    /// One batch's work on a worker thread: decode, process, collect the rejections in line order.
    private static func process<Stage: RecordStage>(
        _ batch: RawLineBatch, of input: DrawingSource.EngineInput, with stage: Stage,
        keepsTimestamps: Bool, maximumLineLength: Int
    ) -> BatchResult<Stage.Batch.Output> {
        var decoder = RecordBatchDecoder(
            keepsTimestamps: keepsTimestamps, flatPoints: stage.input == .flatPoints,
            maximumLineLength: maximumLineLength)
        var state = stage.makeBatch(lineCount: batch.entries.count, format: input.format)
        var rejected: [RejectedLine] = []
        var written = 0
        decoder.decode(batch) { entry, decoded, strokes in
            let location = SourceLocation(file: input.name, line: entry.lineInChunk)
            switch decoded {
            case let .record(record, line):
                do throws(StageRejection) {
                    try state.process(record, strokes: strokes, line: line, location: location)
                    written += 1
                } catch {
                    rejected.append(RejectedLine(location: location, reason: error.reason, bytes: error.quarantinedBytes ?? Array(line)))
                }
            case let .rejected(reason, bytes):
                rejected.append(RejectedLine(location: location, reason: reason, bytes: Array(bytes)))
            case let .sourceError(byteOffset, reason):
                rejected.append(.sourceError(input.name, byteOffset: byteOffset, reason: reason))
            }
            return true
        }
        return BatchResult(output: state.output, written: written, rejected: rejected)
    }
}

/// A processed batch on its way from a worker to the writer.
private struct BatchResult<Output: Sendable>: Sendable {
    var output: Output
    var written: Int
    var rejected: [RejectedLine]
}
