import SketchCore
import SketchFormats
import SketchDataset

/// How a `RecordStage` wants its records.
package enum RecordStageInput: Sendable {
    /// Full drawings, with timestamps when the reader keeps them; `strokes` is empty.
    case drawings
    /// Points only, in flat storage (`strokes`); the record's `drawing` is empty. Cheaper.
    case flatPoints
}

/// What a record stream does with each record: turns it into bytes, tensors or pixels. The
/// stage itself is only a description (settings); each chunk gets fresh state from `makeChunk`
/// on the worker thread that processes it, so that state may hold scratch space or a renderer.
package protocol RecordStage: Sendable {
    /// The per-chunk state.
    associatedtype Chunk: RecordStageChunk
    /// How records arrive.
    var input: RecordStageInput { get }
    /// Fresh state for a chunk of `lineCount` lines.
    func makeChunk(lineCount: Int) -> Chunk
}

/// The state of a `RecordStage` over one chunk: takes the chunk's records in order and yields
/// the chunk's output, which the writer receives on the calling thread in input order.
package protocol RecordStageChunk {
    /// The output of one chunk.
    associatedtype Output: Sendable
    /// Appends what `record` (parsed from `line` at `location`) becomes to the output; a record
    /// over a processing bound (such as the resampling caps) throws and is quarantined instead,
    /// with nothing appended.
    mutating func process(_ record: SketchRecord, strokes: FlatStrokes, line: UnsafeBufferPointer<UInt8>,
                          location: SourceLocation) throws(DrawingLimitError)
    /// The output after the last record.
    var output: Output { get }
}

/// What a record stream did.
package struct RecordStreamResult: Sendable {
    /// Reconciled counts.
    package var tally: RunTally
    /// Rejections grouped by reason kind (see `QuarantineWriter.countsByReason`).
    package var rejectedByReason: [String: Int]
    /// Stored input bytes consumed.
    package var inputBytes: Int
    /// Wall-clock seconds of the run (not reproducible; reports keep it out of their JSON).
    package var seconds: Double
}

/// The streaming engine for drawings: reads each input in batches of NDJSON lines
/// (`InputChunkReader`; `.bin` and stroke-3 inputs decoded into such lines by
/// `DecodedRecordBatches`, formats as `DrawingSource.engineInputs` decides), parses and processes the batches on `jobs` threads
/// (`OrderedParallelMap`), and hands the batch outputs to the writer in input order, so the
/// output bytes are the same for every job count. The one place where rejected lines and source
/// errors reach the quarantine, the tally is kept and progress is shown; it keeps the reader's
/// rules (`QuickDrawReader`): unreadable directory entries first, byte order marks skipped,
/// damaged gzip members as source errors after the records they still hold, and an error when
/// no input at all could be opened.
///
/// Memory is bounded: at most `2 × jobs + 2` batches (each `linesPerChunk` lines of at most
/// `QuickDrawReader.maximumLineLength` bytes) and their outputs are held at once.
package struct RecordStream: Sendable {
    /// The inputs.
    package var reader: DrawingSource
    /// Worker threads (1: everything runs on the calling thread).
    package var jobs: Int
    /// Lines per batch: the unit of parallel work.
    package var linesPerChunk = 1024
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
    /// Throws what `write` or the quarantine file throws, and `PipelineError` when no input could be
    /// opened.
    package func run<Stage: RecordStage>(_ stage: Stage, quarantinePath: String?,
                                         write: (Stage.Chunk.Output) throws -> Void) throws -> RecordStreamResult {
        let quarantine = try makeQuarantine(path: quarantinePath)
        let result = try run(stage, quarantine: quarantine) { output, _ in try write(output) }
        try quarantine.finish()
        return result
    }

    /// The quarantine writer for `path`, printing the first rejections if `printsRejections`;
    /// for runs that stream several inputs into one quarantine (`finish()` it at the end).
    package func makeQuarantine(path: String?) throws -> QuarantineWriter {
        try QuarantineWriter(path: path, maximumMessages: printsRejections ? 20 : 0)
    }

    /// Runs `stage` like `run(_:quarantinePath:write:)`, adding rejected lines to `quarantine`.
    /// `write` may reject records of the batch it receives after all (`reject`: the line moves
    /// from written to rejected), for decisions that need the whole stream so far.
    package func run<Stage: RecordStage>(
        _ stage: Stage, quarantine: QuarantineWriter,
        write: (Stage.Chunk.Output, _ reject: (RejectedLine) throws -> Void) throws -> Void
    ) throws -> RecordStreamResult {
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: showsProgress)
        let rejectedBefore = quarantine.countsByReason
        var tally = RunTally()
        for rejected in reader.rejectedSources {
            try tally.reject(.sourceError(rejected.location.file, byteOffset: 0, reason: rejected.reason), into: quarantine)
        }
        let (inputs, unreadable) = reader.engineInputs()
        for rejected in unreadable { try tally.reject(rejected, into: quarantine) }
        let batches = InputBatches(sources: inputs.map { InputBatches.Source(path: $0.path, format: $0.format, word: $0.word) },
                                   selected: Array(inputs.indices), hashing: false, maximumLineLength: reader.maximumLineLength,
                                   linesPerBatch: linesPerChunk, recordLimit: reader.recordLimitPerInput)
        let files = inputs.map(\.path)
        let (keepsTimestamps, maximumLineLength) = (reader.keepsTimestamps, reader.maximumLineLength)
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: 2 * jobs + 2) { (batch: RawLineBatch) in
            Self.process(batch, path: files[batch.chunk], with: stage,
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
        if !reader.files.isEmpty && batches.unopened.count + unreadable.count == reader.files.count {
            throw PipelineError("none of the \(reader.files.count + reader.rejectedSources.count) inputs could be read"
                + " (each is reported above with its reason); check the paths and their permissions")
        }
        var rejectedByReason: [String: Int] = [:]
        for (reason, count) in quarantine.countsByReason where count != rejectedBefore[reason] {
            rejectedByReason[reason] = count - (rejectedBefore[reason] ?? 0)
        }
        return RecordStreamResult(tally: tally, rejectedByReason: rejectedByReason,
                                  inputBytes: batches.consumedBytes, seconds: progress.elapsedSeconds)
    }

    /// One batch's work on a worker thread: parse, process, collect the rejections in line order.
    private static func process<Stage: RecordStage>(_ batch: RawLineBatch, path: String, with stage: Stage,
                                                    keepsTimestamps: Bool, maximumLineLength: Int) -> BatchResult<Stage.Chunk.Output> {
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        var state = stage.makeChunk(lineCount: batch.entries.count)
        var strokes = FlatStrokes()
        let empty = FlatStrokes()
        var rejected: [RejectedLine] = []
        var written = 0
        for (index, entry) in batch.entries.enumerated() {
            let location = SourceLocation(file: path, line: entry.lineInChunk)
            batch.withEntry(index, maximumLineLength: maximumLineLength) { meaning in
                switch meaning {
                case .line(let line):
                    do throws(FormatError) {
                        let record: SketchRecord
                        switch stage.input {
                        case .drawings: record = try parser.parse(line)
                        case .flatPoints: record = try parser.parse(line, strokesInto: &strokes)
                        }
                        do throws(DrawingLimitError) {
                            try state.process(record, strokes: stage.input == .flatPoints ? strokes : empty,
                                              line: line, location: location)
                            written += 1
                        } catch {
                            rejected.append(RejectedLine(location: location, reason: error.reason, bytes: Array(line)))
                        }
                    } catch {
                        rejected.append(RejectedLine(location: location, reason: error.reason, bytes: Array(line)))
                    }
                case let .rejected(reason, line):
                    rejected.append(RejectedLine(location: location, reason: reason, bytes: Array(line)))
                case let .sourceError(byteOffset, reason):
                    rejected.append(.sourceError(path, byteOffset: byteOffset, reason: reason))
                }
            }
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
