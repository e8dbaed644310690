import SketchCore
import SketchFormats
import SketchDataset

/// Our raw→simplified output against Google's official simplified drawings, joined by key_id.
///
/// The official side is read first and held in memory keyed by key_id; the raw side streams on
/// `RecordStream`: drawings whose key_id has an official match are simplified on `jobs` threads,
/// and the comparison runs on the calling thread in raw input order, so the result is the same
/// for every job count. Both sides' rejected lines go to one quarantine.
package struct ParityJob {
    /// Raw inputs (timestamps are not read).
    package var raw: QuickDrawReader
    /// Official simplified inputs.
    package var official: QuickDrawReader
    /// Simplification parameters for the raw side.
    package var options: SimplificationOptions
    /// How many of the worst drawings the comparison lists.
    package var worstLimit: Int
    /// Quarantine file for rejected lines, or nil to only report and count them.
    package var quarantinePath: String?
    /// Whether to print progress and rejection messages on stderr.
    package var showsProgress: Bool
    /// Worker threads; the result does not depend on it.
    package var jobs: Int

    /// What a parity run found.
    package struct Result {
        /// Pair counts, rates, histogram, worst drawings, per-category rates.
        package var comparison: ParityComparison
        /// Raw drawings without an official drawing of the same key_id.
        package var unmatchedRaw: Int
        /// Official drawings without a raw drawing of the same key_id.
        package var unmatchedOfficial: Int
        /// Official lines whose key_id was seen before in the official inputs (the last one counts).
        package var duplicateOfficial: Int
        /// Counts of the raw side.
        package var rawTally: RunTally
        /// Counts of the official side.
        package var officialTally: RunTally
        /// Wall-clock seconds of both passes (not reproducible).
        package var seconds: Double
    }

    /// Creates a job.
    package init(raw: QuickDrawReader, official: QuickDrawReader, options: SimplificationOptions, worstLimit: Int,
                 quarantinePath: String?, showsProgress: Bool, jobs: Int) {
        self.raw = raw
        self.raw.keepsTimestamps = false
        self.official = official
        self.options = options
        self.worstLimit = worstLimit
        self.quarantinePath = quarantinePath
        self.showsProgress = showsProgress
        self.jobs = jobs
    }

    /// Runs the comparison; `onPair` sees every compared pair (key_id, ours, official) with the
    /// comparison so far, in raw input order (for overlays of the worst drawings).
    package func run(onPair: (String, Drawing, Drawing, ParityComparison) throws -> Void = { _, _, _, _ in }) throws -> Result {
        let officialStream = RecordStream(reader: official, jobs: jobs, showsProgress: showsProgress)
        let quarantine = try officialStream.makeQuarantine(path: quarantinePath)
        var byKey: [String: (word: String, drawing: Drawing)] = [:]
        var duplicateOfficial = 0
        let officialResult = try officialStream.run(RecordCollectingStage(), quarantine: quarantine) { records in
            for record in records where byKey.updateValue((record.word, record.drawing), forKey: record.keyID) != nil {
                duplicateOfficial += 1
            }
        }

        var comparison = ParityComparison(worstLimit: worstLimit)
        var unmatchedRaw = 0
        let stage = MatchedSimplifyStage(options: options, officialKeys: Set(byKey.keys))
        let rawResult = try RecordStream(reader: raw, jobs: jobs, showsProgress: showsProgress)
            .run(stage, quarantine: quarantine) { candidates in
                for candidate in candidates {
                    guard let ours = candidate.ours, let match = byKey.removeValue(forKey: candidate.keyID) else {
                        unmatchedRaw += 1
                        continue
                    }
                    comparison.add(keyID: candidate.keyID, word: match.word, ours: ours, official: match.drawing)
                    try onPair(candidate.keyID, ours, match.drawing, comparison)
                }
            }
        try quarantine.finish()
        return Result(comparison: comparison, unmatchedRaw: unmatchedRaw, unmatchedOfficial: byKey.count,
                      duplicateOfficial: duplicateOfficial, rawTally: rawResult.tally, officialTally: officialResult.tally,
                      seconds: officialResult.seconds + rawResult.seconds)
    }
}

/// Passes the parsed records through (parsing is the parallel part).
struct RecordCollectingStage: RecordStage {
    var input: RecordStageInput { .drawings }
    func makeChunk(lineCount: Int) -> Chunk { Chunk() }

    struct Chunk: RecordStageChunk {
        private(set) var output: [SketchRecord] = []
        mutating func process(_ record: SketchRecord, strokes: FlatStrokes) { output.append(record) }
    }
}

/// Simplifies the drawings whose key_id is among `officialKeys`; the others pass as unmatched.
struct MatchedSimplifyStage: RecordStage {
    /// A raw record's key_id and, when it has an official match, our simplification of it.
    struct Candidate: Sendable {
        var keyID: String
        var ours: Drawing?
    }

    var options: SimplificationOptions
    var officialKeys: Set<String>
    var input: RecordStageInput { .drawings }

    func makeChunk(lineCount: Int) -> Chunk { Chunk(stage: self, simplifier: Simplifier(options: options)) }

    struct Chunk: RecordStageChunk {
        let stage: MatchedSimplifyStage
        var simplifier: Simplifier
        private(set) var output: [Candidate] = []

        mutating func process(_ record: SketchRecord, strokes: FlatStrokes) {
            let ours = stage.officialKeys.contains(record.keyID) ? simplifier.simplify(record.drawing) : nil
            output.append(Candidate(keyID: record.keyID, ours: ours))
        }
    }
}
