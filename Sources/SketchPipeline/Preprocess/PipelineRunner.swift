import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// What a pipeline run did, for the command's summary.
package struct PipelineOutcome {
    /// The manifest written (or found up to date); for a partition, the dataset part of it is empty.
    package var manifest: Manifest
    /// Output directory.
    package var directory: String
    /// True when an existing output already matched inputs and configuration, and nothing was redone.
    package var upToDate: Bool
    /// Shard files already complete and left untouched.
    package var reusedFiles: Int
    /// For `--partition i/n`: the chunks read (of all chunks); nil for a whole run.
    package var partitionChunks: (read: Int, of: Int)? = nil
    /// Why an existing dataset in the directory was rebuilt: each setting that differs from its
    /// manifest (empty when there was none, or with `--force`).
    package var rebuildReasons: [String] = []
    /// The map side's rejections grouped by reason kind (`QuarantineWriter.countsByReason`), for
    /// the reason a run that wrote nothing gives; empty when not known (up to date, `merge`).
    package var rejectedByReason: [String: Int] = [:]
    /// Input chunks reused from a killed run's map side instead of mapped again (resume).
    package var reusedChunks = 0
}

/// `--partition i/n`: this process runs the map side on partition `index` (0-based) of `count`.
package struct Partition: Sendable, Equatable, Codable {
    package var index: Int
    package var count: Int

    /// Parses `i/n` with 0 ≤ i < n.
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else {
            throw PipelineError(
                .configuration,
                "--partition \(text): expected i/n with 0 ≤ i < n, e.g. 0/4 (partitions are numbered from 0, as $SLURM_ARRAY_TASK_ID and $JOB_COMPLETION_INDEX are)"
            )
        }
        self.index = index
        self.count = count
    }
}

/// Runs a ``PipelineConfig``: read → filter → simplify raw drawings → encode → order → shards,
/// then writes `manifest.json`, `classes.txt` and `quarantine.ndjson` into the output directory.
///
/// The run has a map side and a reduce side (docs/pipelines.md, "Order, split and shards"). The
/// map side reads the input chunks on `jobs` threads, makes every example's final bytes and
/// writes them into sorted runs (bounded memory; spilled to a temporary directory); the reduce
/// side runs as `jobs` independent parts that each merge their range of the runs in dataset
/// order, apply per-class quotas and copy the bytes into their share of the shards, and a
/// finalize step writes the manifest. With a ``Partition`` only the map side runs, on a
/// deterministic share of the chunks, and its output directory is a *partial* that `sketchprep
/// merge` (``PartialRun/merge(_:into:parts:showProgress:)``) reduces.
package struct PipelineRunner {
    /// The configuration; a run inside a ``DatasetTransaction`` writes into its staging area
    /// (``writing(into:)``).
    package private(set) var config: PipelineConfig
    /// The pipeline file as given on the command line (recorded in the manifest).
    package let pipelineFile: String
    /// Print progress on stderr.
    package let showProgress: Bool
    /// Skip the up-to-date check (shards that already hold the right bytes are still left untouched).
    package let force: Bool
    /// Worker threads of the map side.
    package var jobs = 1
    /// Run only the map side of this partition.
    package var partition: Partition?
    /// Where sorted runs are spilled (default: next to the output directory).
    package var temporaryDirectory: String?
    /// Bytes of examples the map side holds before it spills a sorted run.
    package var runBudgetBytes = 32 << 20
    /// Size at which large plain inputs are cut into chunks (``InputChunking``).
    package var chunkBytes = InputChunking.defaultChunkBytes
    /// How input paths are written into the dataset's files (`--root`).
    package var recordedPaths = RecordedPaths(root: nil)
    /// Read only the first this-many records of each input (`--limit`; each input is then one chunk).
    package var recordLimit: Int?
    /// The values of the pipeline file that options replaced (what errors call them).
    package var overrides = PipelineOverrides()

    package init(config: PipelineConfig, pipelineFile: String, showProgress: Bool, force: Bool) {
        self.config = config
        self.pipelineFile = pipelineFile
        self.showProgress = showProgress
        self.force = force
    }

    /// Runs the pipeline over `found` (the inputs ``findInputs()`` found, looked for again when nil).
    /// `sources` are `found`'s manifest entries when ``measure(_:)`` already took them (`preprocess
    /// --from` does, to check them against the recorded run): the run records those and reads
    /// each input once, without hashing it again.
    package func run(
        _ found: FoundInputs? = nil, measured sources: [Manifest.SourceFileEntry]? = nil
    ) throws
        -> PipelineOutcome
    {
        guard !config.source.inputs.isEmpty else {
            throw PipelineError(.configuration, "\(pipelineFile): source.inputs is empty and no --input was given")
        }
        try checkInputsExist()
        let directory = config.output.directory
        var paths = OutputPathCheck()
        paths.inputs(config.source.inputs, option: inputsName)
        paths.outputDirectory(directory, option: outputName)
        if let temporaryDirectory { paths.outputDirectory(temporaryDirectory, option: "--tmp-dir") }
        try paths.verify()
        let transaction = try DatasetTransaction.begin(directory)
        defer { transaction.abort() }
        // Whether the output holds a dataset's manifest, which the inputs' checksums may find up to date.
        let holdsDataset = FileSystem.exists("\(directory)/\(DatasetLayout.manifest)")
        let clock = StageClock()
        var recordedConfig = config
        recordedConfig.source.inputs = try config.source.inputs.map(recordedPaths.record)
        let pipelineInfo = Manifest.PipelineInfo(
            name: config.name, file: pipelineFile, config: recordedConfig.json, text: config.text.isEmpty ? nil : config.text)

        switch try found ?? expandedInputs() {
        case let .drawings(_, chunks, rejectedSources):
            if let partition {
                let outcome = try writing(into: transaction.staging).runPartition(
                    partition, chunks: chunks, rejectedSources: rejectedSources,
                    pipeline: pipelineInfo, clock: clock)
                return try commit(transaction, outcome)
            }
            // Measured up front only when a dataset is there to be found up to date (or by the
            // caller); the run then reuses these checksums instead of hashing every chunk a second
            // time while reading it. Without them the map hashes each chunk as it reads it: one
            // pass over the input.
            let hashStart = MonotonicClock.now()
            let measurable = chunks.allSatisfy({ $0.bytes != nil }) && rejectedSources.isEmpty
            let measured =
                !measurable ? nil : sources ?? (!force && holdsDataset ? try? measure(chunks) : nil)
            clock.addWall("hash_inputs", MonotonicClock.now() - hashStart)
            let check = try compareWithExisting(pipeline: pipelineInfo, sources: measured)
            if let existing = check.upToDate { return try upToDate(existing, pipeline: pipelineInfo) }
            carryOverShards(into: transaction)
            let resumable = chunks.allSatisfy({ $0.bytes != nil })
            return try withRunsDirectory(pipeline: pipelineInfo) { runs, deadRuns in
                let map = try writing(into: transaction.staging).mapDrawings(
                    chunks: chunks, selected: Array(chunks.indices), rejectedSources: rejectedSources,
                    quarantinePath: "\(transaction.staging)/\(DatasetLayout.quarantine)", runsDirectory: runs,
                    hashing: measured == nil, measured: measured,
                    resume: resumable ? deadRuns : nil, clock: clock)
                let sources = try measured ?? map.sourceEntries(chunks, recording: recordedPaths)
                return try finish(
                    map, sources: sources, pipeline: pipelineInfo, rebuildReasons: check.differences, into: transaction,
                    deadRuns: deadRuns, scratchRuns: resumable ? nil : runs, clock: clock)
            }
        case .images(let images):
            if let partition {
                let outcome = try writing(into: transaction.staging).runImagePartition(
                    partition, images: images, pipeline: pipelineInfo, clock: clock)
                return try commit(transaction, outcome)
            }
            // As for drawings: measured up front only when a dataset is there to be found up to
            // date; otherwise the map's workers hash each file as they read it.
            let hashStart = MonotonicClock.now()
            let measured = try sources ?? (!force && holdsDataset ? measure(images.chunks) : nil)
            clock.addWall("hash_inputs", MonotonicClock.now() - hashStart)
            let check = try compareWithExisting(pipeline: pipelineInfo, sources: images.rejected.isEmpty ? measured : nil)
            if let existing = check.upToDate { return try upToDate(existing, pipeline: pipelineInfo) }
            carryOverShards(into: transaction)
            return try withRunsDirectory(pipeline: pipelineInfo) { runs, deadRuns in
                let map = try writing(into: transaction.staging).mapImageFiles(
                    images, measuresFiles: measured == nil, runsDirectory: runs, clock: clock)
                let sources = try measured ?? map.sourceEntries(images.chunks, recording: recordedPaths)
                return try finish(
                    map, sources: sources, pipeline: pipelineInfo, rebuildReasons: check.differences, into: transaction,
                    deadRuns: deadRuns, scratchRuns: runs, clock: clock)
            }
        }
    }

    /// The inputs of a run as found on disk, looked for once: the drawing files (directories
    /// expanded, formats detected) with the chunks the map side reads and the inputs it cannot
    /// read, or the image listing. What ``measure(_:)`` measures is what the run then reads.
    package enum FoundInputs {
        case drawings(DrawingSource, chunks: [InputChunk], rejectedSources: [RejectedLine])
        case images(LabeledImageListing)

        /// Warnings for the caller to show before the run: device files and FIFOs found in input
        /// directories and skipped.
        package var warnings: [String] {
            switch self {
            case .drawings(let source, _, _): return source.skippedSources
            case .images(let listing): return listing.skipped
            }
        }
    }

    /// The inputs this run reads (``FoundInputs``); throws when one is missing or unusable.
    package func findInputs() throws -> FoundInputs {
        try checkInputsExist()
        return try expandedInputs()
    }

    /// The inputs found from inputs already checked to exist (``checkInputsExist()``).
    private func expandedInputs() throws -> FoundInputs {
        switch config.source.kind {
        case .quickdrawNDJSON:
            let source = try DrawingSource(inputs: config.source.inputs, format: config.source.fileFormat, word: config.source.word)
            let (inputs, unreadable) = source.engineInputs()
            return .drawings(
                source, chunks: try InputChunking.plan(inputs: inputs, chunkBytes: plannedChunkBytes),
                rejectedSources: source.rejectedSources + unreadable)
        case .imageDirectory:
            return .images(try imageFiles())
        }
    }

    /// This runner writing into `directory` (a transaction's staging area) instead of the output.
    package func writing(into directory: String) -> PipelineRunner {
        var staged = self
        staged.config.output.directory = directory
        return staged
    }

    /// Links the shards of the dataset in the output into the staging area, so that shards the
    /// rebuild writes with the same bytes are left untouched (sharded formats only: their
    /// finalize step removes the shards the new dataset does not list).
    private func carryOverShards(into transaction: DatasetTransaction) {
        guard config.output.format.entry.grouping == .shards,
            let existing = try? Manifest.read(DatasetLayout.manifest, in: config.output.directory)
        else { return }
        transaction.carryOver(existing.shards.map(\.file))
    }

    /// The reduce side of a whole run over `map`, written into `transaction`'s staging area with
    /// its timings, then swapped in; dead runs' directories are removed once it has succeeded.
    /// `scratchRuns`, the runs directory of a map no later run can resume (no checkpoints: image
    /// directories, streams), is removed once the reduce has read it, before the commit syncs the
    /// file system: its runs were not synced (``SortedRunWriter``), and removed first they are
    /// dropped from the page cache instead of written to disk.
    private func finish(
        _ map: MapOutput, sources: [Manifest.SourceFileEntry], pipeline: Manifest.PipelineInfo, rebuildReasons: [String],
        into transaction: DatasetTransaction, deadRuns: MapResume, scratchRuns: String?, clock: StageClock
    ) throws -> PipelineOutcome {
        var written = try writing(into: transaction.staging).reduce(
            try ReduceInput(map: map, sources: sources, pipeline: pipeline), parts: jobs, clock: clock)
        written.rebuildReasons = rebuildReasons
        written.rejectedByReason = map.rejectedByReason
        written.reusedChunks = map.reusedChunks
        if let scratchRuns { TemporaryFiles.removeDirectory(scratchRuns, threads: jobs) }
        try clock.write(to: "\(transaction.staging)/\(DatasetLayout.timings)", jobs: jobs, items: written.manifest.records.read)
        let outcome = try commit(transaction, written)
        deadRuns.removeDeadDirectories()
        return outcome
    }

    /// The outcome of a run whose output is up to date; the directories of dead runs go, as after
    /// any successful run.
    private func upToDate(_ existing: Manifest, pipeline: Manifest.PipelineInfo) throws -> PipelineOutcome {
        try findDeadRuns(own: "", pipeline: pipeline).removeDeadDirectories()
        return PipelineOutcome(
            manifest: existing, directory: config.output.directory, upToDate: true, reusedFiles: existing.shards.count)
    }

    /// Swaps the staged dataset in and reports it under the output's name.
    private func commit(_ transaction: DatasetTransaction, _ staged: PipelineOutcome) throws -> PipelineOutcome {
        try transaction.commit()
        var outcome = staged
        outcome.directory = config.output.directory
        return outcome
    }

    /// A fresh directory for this process's sorted runs under `--tmp-dir` (default: the output's
    /// parent), created exclusively under a name with host, pid and a random part, so that cluster
    /// partitions sharing it never collide and nothing planted in advance is used.
    /// The directory holds a lock its owner keeps until the run ends (``MapResume`` tells a dead
    /// run's directory from a live one's by it).
    private func runsDirectory(in output: String) throws -> (path: String, owner: OutputLock) {
        let parent = temporaryDirectory ?? parentDirectory(of: output)
        try createDirectories(parent)
        try FreeSpace.require(in: parent, forInputBytes: nil)
        let path = try TemporaryFileName.makeDirectory("\(parent)/\(DatasetLayout.temporaryRunsDirectory)")
        return (path, try OutputLock.acquire("\(path)/\(DatasetLayout.runsDirectoryLock)", output: path))
    }

    /// `body` over a fresh runs directory (``runsDirectory(in:)``, removed and unlocked afterwards)
    /// and the dead runs found beside it (``findDeadRuns(own:pipeline:)``).
    private func withRunsDirectory<Result>(
        pipeline: Manifest.PipelineInfo, _ body: (_ runs: String, _ deadRuns: MapResume) throws -> Result
    ) throws -> Result {
        let (runs, owner) = try runsDirectory(in: config.output.directory)
        defer {
            TemporaryFiles.removeDirectory(runs, threads: jobs)
            owner.release()
        }
        return try body(runs, try findDeadRuns(own: runs, pipeline: pipeline))
    }

    /// The temporary directories of dead runs where runs put them (`--tmp-dir` and the output's
    /// parent), for this run to reuse finished chunks from and to remove once it has succeeded.
    private func findDeadRuns(own: String, pipeline: Manifest.PipelineInfo) throws -> MapResume {
        let places = [temporaryDirectory, parentDirectory(of: config.output.directory)].compactMap { $0 }
        let identity = try PartialRun.encodeJSON(pipeline) + PartialRun.encodeJSON(settings) + PartialRun.encodeJSON(Self.libraryVersions)
        return MapResume(places: places, own: own, identity: identity)
    }

    /// The chunk size of this run's input plan: whole inputs under `--limit`.
    var plannedChunkBytes: Int { recordLimit == nil ? chunkBytes : Int.max }

    /// `found` as this run records it in the manifest's `sources` (paths as recorded, sizes,
    /// SHA-256s), measured now: what `preprocess --from` compares with the recorded run before
    /// it runs on them (``run(_:measured:)``). Inputs that cannot be read are left out (the
    /// comparison names them); throws `PipelineError` for an input that is a stream.
    package func measure(_ found: FoundInputs) throws -> [Manifest.SourceFileEntry] {
        switch found {
        case let .drawings(_, chunks, _):
            if let stream = chunks.first(where: { $0.bytes == nil }) {
                throw PipelineError(.input, "input \(TerminalText.escaped(stream.path)) is a stream, which cannot be read again")
            }
            return try measure(chunks)
        case .images(let images):
            return try measure(images.chunks)
        }
    }

    /// Size and SHA-256 of each chunk's stored bytes, as the manifest lists them: the chunks are
    /// hashed on ``jobs`` threads, in chunk order, in groups of consecutive chunks (a handoff
    /// between threads per file would cost more than hashing a small image: 12,800 TU-Berlin
    /// PNGs took 0.21 s on two threads one file at a time, 0.09 s on one thread).
    func measure(_ chunks: [InputChunk]) throws -> [Manifest.SourceFileEntry] {
        var entries: [Manifest.SourceFileEntry] = []
        entries.reserveCapacity(chunks.count)
        let groupSize = max(1, min(Self.measuredChunksPerGroup, chunks.count / max(1, 8 * jobs)))
        let groups = stride(from: 0, to: chunks.count, by: groupSize).map { chunks[$0..<min($0 + groupSize, chunks.count)] }
        let hash = OrderedParallelMap(jobs: jobs) { (group: ArraySlice<InputChunk>) in
            try group.map { try InputFile.measure($0.path, range: $0.range) }
        }
        var index = 0
        try hash.run(groups) { group in
            for measured in group {
                let chunk = chunks[index]
                index += 1
                entries.append(
                    Manifest.SourceFileEntry(
                        path: try recordedPaths.record(chunk.path), offset: chunk.isRange ? chunk.offset : nil,
                        bytes: measured.bytes, sha256: measured.sha256))
            }
        }
        return entries
    }

    /// Most chunks ``measure(_:)`` hashes as one unit of parallel work.
    static let measuredChunksPerGroup = 256

    /// This run's settings that are not in the configuration (recorded in the manifest).
    package var settings: Manifest.RunSettings {
        Manifest.RunSettings(recordLimit: recordLimit, pipelineSHA256: config.fileSHA256)
    }

    /// What the directory's existing manifest says about this run: `upToDate` is the manifest when
    /// it was made by the same pipeline file, configuration, settings, sources (`sources`; nil when
    /// they could not be measured up front) and versions, and every shard it lists is present with
    /// its recorded SHA-256; otherwise `differences` names each setting that differs. A directory
    /// holding another pipeline's dataset is refused unless ``force``.
    private func compareWithExisting(
        pipeline: Manifest.PipelineInfo, sources: [Manifest.SourceFileEntry]?
    ) throws
        -> (upToDate: Manifest?, differences: [String])
    {
        let directory = config.output.directory
        guard let existing = try? Manifest.read(DatasetLayout.manifest, in: directory) else { return (nil, []) }
        if existing.pipeline.name != pipeline.name && !force {
            throw PipelineError(
                .output,
                "\(directory) holds the dataset of another pipeline ('\(existing.pipeline.name)', from \(existing.pipeline.file)); "
                    + "writing '\(pipeline.name)' there would replace it: choose another --output, or pass --force to replace it")
        }
        var differences = ManifestComparison.differences(
            existing: existing, pipeline: pipeline, settings: settings, sources: sources, libraries: Self.libraryVersions)
        if !existing.invalidFields.isEmpty {
            differences.append(
                "the old manifest.json is damaged (\(existing.invalidFields.map { "\($0.field): \($0.detail)" }.joined(separator: "; ")))")
        }
        guard !force, differences.isEmpty, sources != nil else { return (nil, force ? [] : differences) }
        for shard in existing.shards {
            // The manifest found in the output is untrusted: its shard names must lead to regular files inside.
            guard
                case let .file(path, bytes)? = try? DirectoryMember.resolve(
                    shard.file, in: directory, field: "shards", file: DatasetLayout.manifest),
                bytes == shard.bytes, let measured = try? InputFile.measure(path, range: 0..<bytes),
                measured.bytes == shard.bytes, measured.sha256 == shard.sha256
            else { return (nil, ["shard \(shard.file) changed or is missing"]) }
        }
        return (existing, [])
    }

    /// sketchprep's version and the C libraries whose output is in the bytes.
    package static var libraryVersions: [String: String] {
        [
            "sketchprep": SketchPrepVersion.current, "zlib": FormatLibraryVersions.zlib,
            "libdeflate": FormatLibraryVersions.libdeflate, "libpng": FormatLibraryVersions.libpng,
            "cairo": CairoVersion.current,
        ]
    }
}

/// The `filters:` stage's per-record part (recognized, country, category). The per-class cap
/// (`max_per_class`) is applied on the reduce side, by hash rank.
package struct RecordFilter: Sendable {
    private let recognizedOnly: Bool
    private let countries: Set<String>
    private let categories: Set<String>

    package init(_ stage: FilterStage) {
        recognizedOnly = stage.recognizedOnly
        countries = Set(stage.countries)
        categories = Set(stage.categories)
    }

    /// Whether to keep `record`.
    package func accepts(_ record: SketchRecord) -> Bool {
        if recognizedOnly && !record.recognized { return false }
        if !countries.isEmpty && !countries.contains(record.countryCode) { return false }
        return wantsClass(record.word)
    }

    /// Whether class `word` is wanted (the category list).
    package func wantsClass(_ word: String) -> Bool {
        categories.isEmpty || categories.contains(word)
    }
}

extension LabeledImageListing {
    /// Each file as an input chunk of its own, as the manifest's `sources` list image inputs.
    var chunks: [InputChunk] { files.map { InputChunk(path: $0.path, offset: 0, bytes: nil, isRange: false) } }
}
