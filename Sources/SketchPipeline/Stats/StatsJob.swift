import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// `sketchprep stats`: profiles Quick, Draw! inputs and writes `stats.json`, `stats.md` and a
/// self-contained `stats.html` to a directory, with the rejected lines in `rejected.ndjson`.
///
/// Runs on the streaming engine (`RecordStream`): each batch of lines becomes a partial
/// `DatasetProfile` on a worker thread, and the partials merge on the calling thread in input
/// order; since merging adds counts and keeps the lowest hash ranks, the output bytes depend only
/// on the inputs and the options, not on `--jobs`. Memory: the engine's batches in flight,
/// fixed-size histograms per category, `thumbnailCount` drawings per category, and a 2 MiB key
/// buffer (duplicates are counted from spill files, see `DuplicateKeyCounter`).
package struct StatsJob {
    /// The quarantine file in the output directory: every rejected line, verbatim.
    package static let quarantineName = DatasetLayout.statsQuarantine

    /// The inputs, expanded once.
    package let reader: DrawingSource
    /// Sequence length whose truncation share is reported.
    package var length: Int
    /// Thumbnails per category.
    package var thumbnailCount: Int
    /// Worker threads.
    package var jobs: Int
    /// Whether rejected lines are reported on stderr one by one.
    package var showsMessages: Bool
    /// Which drawings are simplified before they are profiled (`--input-format`).
    package var inputFormat = InputFormat.auto

    /// Input files in order (`-` for standard input), as `reader` expands them.
    package var files: [String] { reader.files }

    /// Creates a job over the drawings of `source` (NDJSON, `.bin`, stroke-3); throws
    /// `PipelineError` for a length or thumbnail count out of range.
    package init(source: DrawingSource, length: Int = 75, thumbnailCount: Int = 12, jobs: Int = 1, showsMessages: Bool = true) throws {
        guard length >= 1 else { throw PipelineError(.configuration, "--length must be at least 1 (got \(length))") }
        guard (0...256).contains(thumbnailCount) else {
            throw PipelineError(.configuration, "--thumbnails must be between 0 and 256 (got \(thumbnailCount))")
        }
        reader = source
        self.length = length
        self.thumbnailCount = thumbnailCount
        self.jobs = max(1, jobs)
        self.showsMessages = showsMessages
    }

    /// Throws `PipelineError` when one of `inputs` is a dataset directory this tool wrote (it holds
    /// `manifest.json`): its files are shards, not drawings, and profiling them would profile only
    /// its quarantine. The message points to `sketchprep info DIR`.
    package static func refuseDatasetDirectories(_ inputs: [String]) throws {
        for input in inputs where FileSystem.exists("\(input)/\(DatasetLayout.manifest)") {
            throw PipelineError(
                .input,
                "\(input) is a dataset directory (it holds \(DatasetLayout.manifest)), not drawings: "
                    + "see what it holds with `sketchprep info \(input)`; stats profiles drawing inputs (NDJSON, .bin, stroke-3, CSV, SVG)")
        }
    }

    /// Profiles every input; rejected lines go to `quarantinePath` (nil: only counted), and a
    /// fresh temporary directory next to `spillBase` (created exclusively and removed here) holds
    /// the key spill files.
    package func profile(spillBase: String, quarantinePath: String?) throws -> DatasetProfile {
        let spillDirectory = try TemporaryFileName.makeDirectory(spillBase)
        defer { TemporaryFiles.removeDirectory(spillDirectory) }
        var stream = RecordStream(reader: reader, jobs: jobs, showsProgress: false)
        stream.printsRejections = showsMessages
        var fileIndices: [String: Int] = [:]
        for (index, file) in files.enumerated() where fileIndices[file] == nil { fileIndices[file] = index }
        let stage = ProfileStage(length: length, thumbnailCount: thumbnailCount, fileIndices: fileIndices, inputFormat: inputFormat)
        var total = DatasetProfile(length: length, thumbnailCount: thumbnailCount)
        let spill = KeySpill(directory: spillDirectory, worker: 0)
        let result = try stream.run(stage, quarantinePath: quarantinePath) { batch in
            total.merge(batch.profile)
            if total.categories.count > DatasetProfile.maximumCategories {
                throw PipelineError(
                    .input,
                    "stats profiles at most \(DatasetProfile.maximumCategories) categories (the whole Quick, Draw! "
                        + "dataset has 345) and this input has more, so nothing was written: is `word` a per-drawing value? "
                        + "Profile a subset of the files, or see docs/limits.md")
            }
            for key in batch.keyIDs { try spill.add(key) }
        }
        try spill.finish()
        total.tally = result.tally
        total.rejectedByReason = result.rejectedByReason
        total.duplicates = try DuplicateKeyCounter.count(directory: spillDirectory, workers: 1)
        return total
    }

    /// Profiles the inputs and writes `stats.json`, `stats.md`, `stats.html` and `rejected.ndjson`
    /// into `outputDirectory` (created if missing; each file written atomically). A run that profiled
    /// no drawing writes no page: the files of an earlier run stay (`RecordCounts.commitsOutput`).
    package func run(outputDirectory: String) throws -> DatasetProfile {
        try createDirectories(outputDirectory)
        let profile = try profile(spillBase: "\(outputDirectory)/.stats-keys", quarantinePath: "\(outputDirectory)/\(Self.quarantineName)")
        guard profile.tally.commitsOutput else { return profile }
        let thumbnails = try StatsThumbnails.render(profile)
        let report = StatsReport(profile: profile, inputs: files)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var json = try encoder.encode(report)
        json.append(0x0A)
        try writeAtomically(json, to: "\(outputDirectory)/stats.json")
        try writeAtomically(StatsMarkdownWriter.markdown(profile, inputs: files), to: "\(outputDirectory)/stats.md")
        try writeAtomically(
            StatsHTMLWriter.html(profile, inputs: files, thumbnails: thumbnails),
            to: "\(outputDirectory)/stats.html")
        return profile
    }
}

/// The profile of one batch of lines, on its way from a worker to the merge.
struct ProfileBatch: Sendable {
    var profile: DatasetProfile
    var keyIDs: [String]
}

/// The stats stage of the engine: every batch of records becomes a partial profile. Drawings that
/// `inputFormat` says are raw are simplified with Google's rule first; a drawing over a
/// simplification limit is rejected by the engine.
struct ProfileStage: RecordStage {
    let length: Int
    let thumbnailCount: Int
    /// Position of each input in the file list (ties between thumbnails break by it).
    let fileIndices: [String: Int]
    let inputFormat: InputFormat

    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> ProfileBatchState {
        ProfileBatchState(
            profile: DatasetProfile(length: length, thumbnailCount: thumbnailCount), fileIndices: fileIndices,
            inputFormat: inputFormat, fileFormat: format)
    }
}

/// One batch's partial profile.
struct ProfileBatchState: RecordStageBatch {
    var profile: DatasetProfile
    let fileIndices: [String: Int]
    let inputFormat: InputFormat
    /// The format of the batch's input.
    let fileFormat: DrawingFileFormat
    var keyIDs: [String] = []
    var simplifier = Simplifier(options: .google)
    var simplified = FlatStrokes()

    init(profile: DatasetProfile, fileIndices: [String: Int], inputFormat: InputFormat, fileFormat: DrawingFileFormat) {
        self.profile = profile
        self.fileIndices = fileIndices
        self.inputFormat = inputFormat
        self.fileFormat = fileFormat
    }

    mutating func process(
        _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
        location: SourceLocation
    ) throws(StageRejection) {
        let wasRaw = inputFormat.needsSimplification(record, readAs: fileFormat)
        if wasRaw {
            try StageRejection.overLimit { () throws(DrawingLimitError) in try simplifier.simplify(record.drawing, into: &simplified) }
        } else {
            simplified.replaceContents(with: record.drawing)
        }
        keyIDs.append(record.keyID)
        profile.add(
            record, simplified: simplified, wasRaw: wasRaw,
            fileIndex: fileIndices[location.file] ?? 0, line: location.line)
    }

    var output: ProfileBatch { ProfileBatch(profile: profile, keyIDs: keyIDs) }
}
