import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// The sink of the preprocess map side (drawings and images alike): receives the engine's batch
/// outcomes in input order (``RecordStream/drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``),
/// adds their examples to the sorted runs, counts them per class, sort-key bucket and split,
/// quarantines their rejections in input order, and, with resume checkpoints, closes each chunk's
/// runs and quarantined lines into its ``MapCheckpoint`` when the next chunk begins.
final class MapSink {
    private let runs: SortedRunWriter
    private let quarantine: QuarantineWriter
    private let checkpoints: ChunkCheckpointWriter?
    private let clock: StageClock
    /// A rejection of chunk `chunk` with its place in the input (file, line or offset).
    private let place: (_ rejection: BatchRejection, _ chunk: Int) throws -> RejectedLine
    /// The digest of a chunk that ends (resume checkpoints only).
    private let digest: (_ chunk: Int) -> (bytes: Int, sha256: String)?
    /// What the chunks closed so far produced.
    private(set) var output = MapOutput()
    /// What the chunk being mapped produced (the whole map without checkpoints).
    private var current = MapOutput()
    /// Lines quarantined per chunk.
    private(set) var quarantined: [Int: Int] = [:]

    /// A sink writing into `runs` and `quarantine` (with `checkpoints`, each chunk's quarantined
    /// lines go to its own file and are only counted in `quarantine`).
    init(
        runs: SortedRunWriter, quarantine: QuarantineWriter, checkpoints: ChunkCheckpointWriter?, clock: StageClock,
        place: @escaping (BatchRejection, Int) throws -> RejectedLine,
        digest: @escaping (Int) -> (bytes: Int, sha256: String)? = { _ in nil }
    ) {
        self.runs = runs
        self.quarantine = quarantine
        self.checkpoints = checkpoints
        self.clock = clock
        self.place = place
        self.digest = digest
    }

    /// Takes one batch's outcome.
    func consume(_ outcome: BatchOutcome<MappedExamples>) throws {
        if let checkpoints, checkpoints.chunk != outcome.chunk {
            try closeChunk()
            checkpoints.begin(outcome.chunk)
        }
        clock.add(outcome.seconds)
        current.seenWords.formUnion(outcome.seenWords)
        current.seenCountries.formUnion(outcome.seenCountries)
        current.records.add(outcome.counts)
        current.words.formUnion(outcome.output.words)
        current.bucketCounts.formUnion(outcome.output.bucketCounts)
        try runs.add(outcome.output.fragment)
        for file in outcome.measuredFiles {
            current.chunks[file.index] = MapOutput.ChunkRecord(bytes: file.bytes, sha256: file.sha256, quarantined: 0)
        }
        for rejection in outcome.rejections {
            let chunk: Int
            if case let .file(index, _, _) = rejection {
                chunk = index
                current.chunks[index]?.quarantined = 1
            } else {
                chunk = outcome.chunk
            }
            quarantined[chunk, default: 0] += 1
            let line = try place(rejection, outcome.chunk)
            if let checkpoints {
                try checkpoints.quarantine(line.bytes)
                quarantine.tally(line)
            } else {
                try quarantine.add(line)
            }
        }
        TestStopPoint.map.reached()
    }

    /// Closes the chunk being mapped (resume checkpoints: its runs and ``MapCheckpoint``, written
    /// in the background when the run writer writes there).
    func closeChunk() throws {
        guard let checkpoints, let chunk = checkpoints.chunk else { return }
        checkpoints.current = current
        var (closed, writeFiles) = checkpoints.close(digest: digest(chunk), quarantined: quarantined[chunk] ?? 0)
        // The map goes on while the chunk's last run and its checkpoint are written.
        closed.runs = try runs.closeChunk(then: writeFiles)
        output.absorb(closed)
        current = MapOutput()
    }

    /// Everything mapped, once the last outcome is consumed: closes the last chunk and returns
    /// the output with the runs not yet handed over chunk by chunk.
    func finish() throws -> MapOutput {
        try closeChunk()
        output.absorb(current)
        current = MapOutput()
        return output
    }

    /// Spills what the run writer buffers and waits for what it writes in the background (with
    /// checkpoints, the last chunk's run and checkpoint); every run file.
    func finishRuns() throws -> [String] { try runs.finish() }
}
