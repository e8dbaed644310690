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
    /// Appends what `record` becomes to the output.
    mutating func process(_ record: SketchRecord, strokes: FlatStrokes)
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

/// The streaming engine for Quick, Draw! NDJSON: reads the inputs in chunks of lines, parses and
/// processes the chunks on `jobs` threads (`OrderedParallelMap`), and hands the chunk outputs to
/// the writer in input order, so the output bytes are the same for every job count. The one
/// place where rejected lines reach the quarantine, the tally is kept and progress is shown.
///
/// Memory is bounded: at most `2 × jobs + 2` chunks (each at most `linesPerChunk` lines or about
/// 8 MB) and their outputs are held at once.
package struct RecordStream: Sendable {
    /// The inputs.
    package var reader: QuickDrawReader
    /// Worker threads (1: everything runs on the calling thread).
    package var jobs: Int
    /// Lines per chunk: the unit of parallel work.
    package var linesPerChunk = 1024
    /// Whether progress and the first rejections are printed on stderr.
    package var showsProgress: Bool

    /// Creates a stream over `reader`'s inputs.
    package init(reader: QuickDrawReader, jobs: Int, showsProgress: Bool) {
        self.reader = reader
        self.jobs = max(1, jobs)
        self.showsProgress = showsProgress
    }

    /// Runs `stage` over every record; rejected lines go to `quarantinePath` (nil: only counted
    /// and reported); `write` receives each chunk's output in input order on the calling thread.
    /// Throws what `write` or the quarantine file throws.
    package func run<Stage: RecordStage>(_ stage: Stage, quarantinePath: String?,
                                         write: (Stage.Chunk.Output) throws -> Void) throws -> RecordStreamResult {
        let quarantine = try makeQuarantine(path: quarantinePath)
        let result = try run(stage, quarantine: quarantine, write: write)
        try quarantine.finish()
        return result
    }

    /// The quarantine writer for `path`, printing the first rejections unless progress is off;
    /// for runs that stream several inputs into one quarantine (`finish()` it at the end).
    package func makeQuarantine(path: String?) throws -> QuarantineWriter {
        try QuarantineWriter(path: path, maximumMessages: showsProgress ? 20 : 0)
    }

    /// Runs `stage` like `run(_:quarantinePath:write:)`, adding rejected lines to `quarantine`.
    package func run<Stage: RecordStage>(_ stage: Stage, quarantine: QuarantineWriter,
                                         write: (Stage.Chunk.Output) throws -> Void) throws -> RecordStreamResult {
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: showsProgress)
        let rejectedBefore = quarantine.countsByReason
        var tally = RunTally()
        var inputBytes = 0
        let keepsTimestamps = reader.keepsTimestamps
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: 2 * jobs + 2) { (chunk: LineChunk) in
            Self.process(chunk, with: stage, keepsTimestamps: keepsTimestamps)
        }
        try map.run(reader.chunks(linesPerChunk: linesPerChunk)) { result in
            for line in result.rejected { try tally.reject(line, into: quarantine) }
            tally.read += result.written
            try write(result.output)
            tally.written += result.written
            inputBytes = result.consumedInputBytes
            progress.update(bytesConsumed: inputBytes)
            progress.advance(by: result.written + result.rejected.count)
        }
        progress.finish()
        var rejectedByReason: [String: Int] = [:]
        for (reason, count) in quarantine.countsByReason where count != rejectedBefore[reason] {
            rejectedByReason[reason] = count - (rejectedBefore[reason] ?? 0)
        }
        return RecordStreamResult(tally: tally, rejectedByReason: rejectedByReason,
                                  inputBytes: inputBytes, seconds: progress.elapsedSeconds)
    }

    /// One chunk's work on a worker thread: parse, process, collect the rejections in line order.
    private static func process<Stage: RecordStage>(_ chunk: LineChunk, with stage: Stage,
                                                    keepsTimestamps: Bool) -> ChunkResult<Stage.Chunk.Output> {
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        var state = stage.makeChunk(lineCount: chunk.lineCount)
        var rejected: [RejectedLine] = []
        var written = 0
        switch stage.input {
        case .drawings:
            let empty = FlatStrokes()
            chunk.parse(with: &parser, onRecord: { record, _ in
                state.process(record, strokes: empty)
                written += 1
            }, onRejected: { rejected.append($0) })
        case .flatPoints:
            var strokes = FlatStrokes()
            chunk.parseFlat(with: &parser, strokes: &strokes, onRecord: { record, points, _ in
                state.process(record, strokes: points)
                written += 1
            }, onRejected: { rejected.append($0) })
        }
        return ChunkResult(output: state.output, written: written, rejected: rejected,
                           consumedInputBytes: chunk.consumedInputBytes)
    }
}

/// A processed chunk on its way from a worker to the writer.
private struct ChunkResult<Output: Sendable>: Sendable {
    var output: Output
    var written: Int
    var rejected: [RejectedLine]
    var consumedInputBytes: Int
}
