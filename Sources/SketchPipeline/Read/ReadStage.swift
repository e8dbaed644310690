import SketchCore
import SketchFormats
import SketchIO

/// The engine's stage of the Python package's `sketchprep.read`: on each worker, a batch's
/// drawings go into a ``ReadBatch`` of their own, as they are read (nothing is filtered or refused
/// here; the batch's rejected lines reach the consumer beside it, in the engine's
/// ``BatchOutcome``). It lives beside the engine so that the engine's worker loop is specialized
/// for it (from another module the loop ran unspecialized: 9 % more instructions for a `.bin` read).
package struct ReadStage: RecordStage {
    /// Points in flat storage, with their times where the reader keeps them: every format.
    package var input: RecordStageInput { .flatPoints }
    /// Where each batch's arrays come from.
    package let pool: ReadBatchPool

    package func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(output: pool.take())
    }

    package struct Batch: RecordStageBatch {
        package private(set) var output: ReadBatch

        package mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine, location: SourceLocation
        ) throws(StageRejection) {
            output.append(record, points: strokes)
        }
    }

    /// Reads `source`'s inputs as every command does (its rejected sources first, then
    /// `InputBatches` through ``RecordStream/drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``
    /// on `jobs` workers, engine batches of at most `min(batchRecords, 1,024)` lines), and hands
    /// the drawings to `hand` in input order with the rejected lines of their batches, engine
    /// batches joined while the group holds at most `batchRecords` drawings and rejected lines
    /// together (so a run of rejected lines is handed on as well, not gathered). `hand` returns false
    /// to stop the read: then no more is read and this returns. Throws what the engine throws, and
    /// `FormatError` when no input could be opened.
    package static func read(
        _ source: DrawingSource, jobs: Int, batchRecords: Int, pool: ReadBatchPool,
        hand: (inout ReadBatchGroup) -> Bool
    ) throws {
        struct Stopped: Error {}
        var group = ReadBatchGroup()
        var refused = ReadBatch()
        for rejected in source.rejectedSourceErrors { refused.reject(rejected) }
        let (inputs, unreadable) = source.engineInputs()
        for rejected in unreadable { refused.reject(rejected) }
        group.append(refused)
        let batches = source.batches(of: inputs, linesPerBatch: min(batchRecords, InputBatches.defaultLinesPerBatch))
        var work = DrawingBatchWork(
            stage: ReadStage(pool: pool), chunks: inputs.map { ($0.name, $0.format) })
        work.keepsTimestamps = source.keepsTimestamps
        work.maximumLineLength = source.maximumLineLength
        work.timesParsing = false
        func consume(_ outcome: BatchOutcome<ReadBatch>) throws {
            var output = outcome.output
            for rejection in outcome.rejections { output.reject(rejection.rejectedLine(inFile: inputs[outcome.chunk].name)) }
            if group.recordCount + output.recordCount > batchRecords, !hand(&group) { throw Stopped() }
            group.append(output)
        }
        do {
            try RecordStream.drive(
                batches, jobs: jobs, progress: ProgressReporter(unit: "drawings", totalBytes: nil, enabled: false),
                consumedBytes: { nil }, work: work.callAsFunction, consume: consume)
            if !group.isEmpty, !hand(&group) { return }
        } catch is Stopped {
            return
        }
        try source.requireAnInputOpened(in: batches, refused: unreadable.count)
    }
}
