import SketchCore
import SketchDataset
import SketchFormats

/// Our raw→simplified output against Google's official simplified drawings, joined by key_id.
///
/// The official side is read first and held in memory keyed by key_id; the raw side streams on
/// `RecordStream`: drawings whose key_id has an official match are simplified on `jobs` threads,
/// and the join and comparison run on the calling thread in raw input order, so the result is
/// the same for every job count. Each side keeps the first record of a key_id; later repeats are
/// counted and named. A matched raw drawing over a resampling cap is quarantined. Both sides'
/// rejected lines go to one quarantine.
package struct ParityJob {
    /// Raw inputs (timestamps are not read).
    package var raw: DrawingSource
    /// Official simplified inputs.
    package var official: DrawingSource
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
        /// Official records whose key_id was seen before in the official inputs.
        package var duplicateOfficial: DuplicateKeys
        /// Raw records whose key_id was seen before in the raw inputs.
        package var duplicateRaw: DuplicateKeys
        /// Compared raw drawings that were already simplified by the one raw-or-simplified rule
        /// (`InputFormat.needsSimplification(_:readAs:)` under `auto`): simplified again, they say
        /// nothing about Google's rule.
        package var rawAlreadySimplified: Int
        /// Counts of the raw side.
        package var rawTally: RecordCounts
        /// Counts of the official side.
        package var officialTally: RecordCounts
        /// Wall-clock seconds of both passes (not reproducible).
        package var seconds: Double
    }

    /// Creates a job.
    package init(
        raw: DrawingSource, official: DrawingSource, options: SimplificationOptions, worstLimit: Int,
        quarantinePath: String?, showsProgress: Bool, jobs: Int
    ) {
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
        var officialStream = RecordStream(reader: official, jobs: jobs, showsProgress: showsProgress)
        officialStream.printsRejections = showsProgress
        let quarantine = officialStream.makeQuarantine(path: quarantinePath)
        var byKey: [String: (word: String, drawing: Drawing)] = [:]
        var duplicateOfficial = DuplicateKeys()
        let officialResult = try officialStream.run(RecordCollectingStage(), quarantine: quarantine) { records, _ in
            for record in records {
                if byKey[record.keyID] == nil {
                    byKey[record.keyID] = (record.word, record.drawing)
                } else {
                    duplicateOfficial.add(record.keyID)
                }
            }
        }

        var comparison = ParityComparison(worstLimit: worstLimit)
        var unmatchedRaw = 0
        var rawAlreadySimplified = 0
        var seenRaw = Set<String>()
        var duplicateRaw = DuplicateKeys()
        let stage = MatchedSimplifyStage(options: options, officialKeys: Set(byKey.keys))
        let rawResult = try RecordStream(reader: raw, jobs: jobs, showsProgress: showsProgress)
            .run(stage, quarantine: quarantine) { candidates, reject in
                for candidate in candidates {
                    guard !seenRaw.contains(candidate.keyID) else {
                        duplicateRaw.add(candidate.keyID)
                        continue
                    }
                    guard let match = byKey[candidate.keyID] else {
                        seenRaw.insert(candidate.keyID)
                        unmatchedRaw += 1
                        continue
                    }
                    switch candidate.ours {
                    case .simplified(let ours):
                        if candidate.wasSimplified { rawAlreadySimplified += 1 }
                        seenRaw.insert(candidate.keyID)
                        byKey[candidate.keyID] = nil
                        comparison.add(keyID: candidate.keyID, word: match.word, ours: ours, official: match.drawing)
                        try onPair(candidate.keyID, ours, match.drawing, comparison)
                    case .overLimit(let line):
                        try reject(line)
                    case .notSimplified:
                        // Every key_id the official side holds is simplified by the stage.
                        preconditionFailure("a raw drawing with an official match was not simplified")
                    }
                }
            }
        try quarantine.finish()
        return Result(
            comparison: comparison, unmatchedRaw: unmatchedRaw, unmatchedOfficial: byKey.count,
            duplicateOfficial: duplicateOfficial, duplicateRaw: duplicateRaw, rawAlreadySimplified: rawAlreadySimplified,
            rawTally: rawResult.tally, officialTally: officialResult.tally,
            seconds: officialResult.seconds + rawResult.seconds)
    }
}

/// Passes the parsed records through (parsing is the parallel part).
struct RecordCollectingStage: RecordStage {
    var input: RecordStageInput { .drawings }
    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch { Batch() }

    struct Batch: RecordStageBatch {
        private(set) var output: [SketchRecord] = []
        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) { output.append(record) }
    }
}

/// Simplifies the drawings whose key_id is among `officialKeys`; the others pass unsimplified.
struct MatchedSimplifyStage: RecordStage {
    /// A raw record's key_id and, when it has an official match, our simplification of it or
    /// the quarantine entry of a drawing over a resampling cap.
    struct Candidate: Sendable {
        enum Ours: Sendable {
            case notSimplified
            case simplified(Drawing)
            case overLimit(RejectedLine)
        }
        var keyID: String
        var ours: Ours
        /// Whether the record was already simplified by the one rule (not raw input).
        var wasSimplified = false
    }

    var options: SimplificationOptions
    var officialKeys: Set<String>
    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(stage: self, format: format, simplifier: Simplifier(options: options))
    }

    struct Batch: RecordStageBatch {
        let stage: MatchedSimplifyStage
        /// The format of the batch's input (`InputFormat.needsSimplification(_:readAs:)`).
        let format: DrawingFileFormat
        var simplifier: Simplifier
        private(set) var output: [Candidate] = []

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) {
            guard stage.officialKeys.contains(record.keyID) else {
                output.append(Candidate(keyID: record.keyID, ours: .notSimplified))
                return
            }
            do throws(DrawingLimitError) {
                let ours = try simplifier.simplify(record.drawing)
                let wasSimplified = !InputFormat.auto.needsSimplification(record, readAs: format)
                output.append(Candidate(keyID: record.keyID, ours: .simplified(ours), wasSimplified: wasSimplified))
            } catch {
                output.append(
                    Candidate(
                        keyID: record.keyID,
                        ours: .overLimit(RejectedLine(location: location, reason: error.reason, bytes: Array(line)))))
            }
        }
    }
}
