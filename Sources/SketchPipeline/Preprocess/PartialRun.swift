import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// `partial.json`: what one `preprocess --partition i/n` wrote, so that `sketchprep merge` can
/// check the partials fit together before it reduces them.
package struct PartialManifest: Codable, Equatable {
    /// Always true: this directory is a partial output, not a dataset.
    package var partial = true
    package var formatVersion = Manifest.currentFormatVersion
    package var partition: Partition
    /// The pipeline as the dataset's manifest records it.
    package var pipeline: Manifest.PipelineInfo
    /// The pipeline file's text and the command-line overrides, so that the merge rebuilds the
    /// same configuration on any node.
    package var pipelineText: String
    package var categories: [String]
    package var inputs: [String]
    package var libraries: [String: String]
    /// Every chunk of the whole run (each partition plans the same list).
    package var chunks: [InputChunk]
    /// The chunks this partition read, with their stored size, SHA-256 and quarantined lines.
    package var read: [ChunkRead]
    /// Directory entries quarantined before any chunk (partition 0 reports them).
    package var rejectedSources: Int
    package var records: RecordCounts
    /// Class words of the examples this partition kept.
    package var words: [String]
    /// Words and country codes of every record read, while a category or country filter is set
    /// (``FilterCheck`` judges the filters at merge).
    package var seenWords: [String]
    package var seenCountries: [String]
    /// Run files, relative to the partial directory.
    package var runs: [String]
    /// Examples per class, sort-key bucket and split (``BucketCounts/sparse``).
    package var bucketCounts: [BucketCounts.Sparse]

    package struct ChunkRead: Codable, Equatable {
        package var chunk: Int
        package var bytes: Int
        package var sha256: String
        package var quarantined: Int
    }

    enum CodingKeys: String, CodingKey {
        case partial
        case formatVersion = "format_version"
        case partition, pipeline
        case pipelineText = "pipeline_text"
        case categories, inputs,
            libraries, chunks, read
        case rejectedSources = "rejected_sources"
        case records, words, runs
        case bucketCounts = "bucket_counts"
        case
            seenWords = "seen_words"
        case seenCountries = "seen_countries"
    }
}

extension PipelineRunner {
    /// The map side of one partition: reads its share of the chunks into sorted run files in
    /// the output directory, with its quarantined lines and `partial.json`.
    func runPartition(
        _ partition: Partition, chunks: [InputChunk], rejectedSources: [RejectedLine],
        pipeline: Manifest.PipelineInfo, clock: StageClock
    ) throws -> PipelineOutcome {
        if let stream = chunks.first(where: { $0.bytes == nil }) {
            throw PipelineError(
                .partials, "--partition needs regular input files (each partition seeks to its chunks); \(stream.path) is a stream")
        }
        return try runPartition(partition, chunks: chunks, pipeline: pipeline, clock: clock) { selected, runsDirectory in
            try mapDrawings(
                chunks: chunks, selected: selected, rejectedSources: partition.index == 0 ? rejectedSources : [],
                quarantinePath: "\(config.output.directory)/\(DatasetLayout.quarantine)", runsDirectory: runsDirectory,
                clock: clock)
        }
    }

    /// The map side of one partition, `map` reading the chunks dealt to it (``InputChunking/deal(_:partition:of:)``)
    /// into run files in the given directory.
    func runPartition(
        _ partition: Partition, chunks: [InputChunk], pipeline: Manifest.PipelineInfo, clock: StageClock,
        map mapChunks: (_ selected: [Int], _ runsDirectory: String) throws -> MapOutput
    ) throws -> PipelineOutcome {
        let directory = config.output.directory
        let partialPath = "\(directory)/\(DatasetLayout.partialManifest)"
        do {
            try FileSystem.remove(partialPath)
        } catch {
            guard error == .noSuchFileOrDirectory else {
                throw PipelineError(.output, "cannot remove the old \(partialPath): \(error.text)")
            }
        }
        let runsDirectory = "\(directory)/\(DatasetLayout.partialRunsDirectory)"
        FileSystem.removeTree(runsDirectory)
        // Until partial.json names them, the runs are this process's temporary files.
        TemporaryFiles.register(runsDirectory)
        defer { TemporaryFiles.unregister(runsDirectory) }
        let selected = InputChunking.deal(chunks, partition: partition.index, of: partition.count)
        let map = try mapChunks(selected, runsDirectory)
        let partial = PartialManifest(
            partition: partition, pipeline: pipeline, pipelineText: config.text, categories: config.filters.categories,
            inputs: try config.source.inputs.map(recordedPaths.record),
            libraries: Self.libraryVersions,
            chunks: try chunks.map { chunk in
                var recorded = chunk
                recorded.path = try recordedPaths.record(chunk.path)
                return recorded
            },
            read: selected.map { index in
                let record = map.chunks[index]!
                return .init(chunk: index, bytes: record.bytes, sha256: record.sha256, quarantined: record.quarantined)
            },
            rejectedSources: map.rejectedSources,
            records: map.records,
            words: map.words.sorted,
            seenWords: map.seenWords.sorted,
            seenCountries: map.seenCountries.sorted(),
            runs: map.runs.map { DatasetLayout.partialRunsDirectory + "/" + ($0 as NSString).lastPathComponent },
            bucketCounts: map.bucketCounts.sparse)
        try writeAtomically(try PartialRun.encode(partial), to: partialPath)
        try clock.write(to: "\(directory)/\(DatasetLayout.timings)", jobs: jobs, items: map.records.read)
        let manifest = Manifest(
            pipeline: pipeline, sources: [], classes: [], counts: [:], shards: [],
            records: partial.records, quarantine: DatasetLayout.quarantine, libraries: partial.libraries)
        return PipelineOutcome(
            manifest: manifest, directory: directory, upToDate: false, reusedFiles: 0,
            partitionChunks: (selected.count, chunks.count))
    }
}

/// `sketchprep merge`: the reduce side of a partitioned run.
package enum PartialRun {

    static func encode(_ partial: PartialManifest) throws -> [UInt8] { try encodeJSON(partial) }

    /// Pretty-printed JSON with sorted keys and a final newline.
    static func encodeJSON<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value)) + [0x0A]
    }

    static func load(_ directory: String) throws -> PartialManifest {
        let path = "\(directory)/\(DatasetLayout.partialManifest)"
        guard
            case let .file(resolved, _) = try DirectoryMember.resolve(
                DatasetLayout.partialManifest, in: directory, field: "file", file: path)
        else {
            throw PipelineError(
                .partials,
                "\(directory) is not a finished partition: no \(DatasetLayout.partialManifest) (re-run its `sketchprep preprocess --partition i/n`)"
            )
        }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(resolved, maximumBytes: PartialManifest.maximumFileBytes)
        } catch {
            throw PipelineError(.partials, "\(error.description); re-run that partition")
        }
        return try decode(bytes, path: path)
    }

    /// What `sketchprep merge` runs: the whole reduce side in this process (`parts` parts in
    /// parallel, then the finalize step), one part of it (`--reduce i/R`), or the finalize step
    /// after every part ran (`--finalize`).
    package enum Step {
        case all(parts: Int)
        case part(ReducePart)
        case finalize
    }

    /// What a `merge` step did: the dataset (``Step/all(parts:)``, ``Step/finalize``) or one part's report.
    package enum StepOutcome {
        case dataset(PipelineOutcome)
        case part(ReducePartReport)
    }

    /// Checks that `directories` are the n partials of one run, then writes the dataset into
    /// `output` exactly as a single `preprocess` of the same inputs writes it.
    package static func merge(_ directories: [String], into output: String, parts: Int = 1, showProgress: Bool) throws -> PipelineOutcome {
        guard case let .dataset(outcome) = try merge(directories, into: output, step: .all(parts: parts), showProgress: showProgress) else {
            throw PipelineError(.invariant, "internal: merge wrote no dataset")
        }
        return outcome
    }

    /// Checks that `directories` are the n partials of one run, then runs `step` of the reduce
    /// side into `output`; every step and split into parts gives the same bytes.
    package static func merge(_ directories: [String], into output: String, step: Step, showProgress: Bool) throws -> StepOutcome {
        guard !directories.isEmpty else { throw PipelineError(.configuration, "merge needs the partial directories of a partitioned run") }
        let partials = try directories.map(load)
        let first = partials[0]
        let n = first.partition.count
        var byIndex: [Int: Int] = [:]
        for (position, partial) in partials.enumerated() {
            let name = directories[position]
            guard partial.partial, partial.formatVersion == Manifest.currentFormatVersion else {
                throw PipelineError(
                    .partials,
                    "\(name): written by another sketchprep layout (format \(partial.formatVersion)); re-run it with this version")
            }
            guard partial.partition.count == n else {
                throw PipelineError(
                    .partials,
                    "\(name) is partition \(partial.partition.index)/\(partial.partition.count), but \(directories[0]) is of \(n) partitions: partials of different runs cannot be merged"
                )
            }
            guard partial.pipeline == first.pipeline, partial.categories == first.categories else {
                throw PipelineError(
                    .partials,
                    "\(name) was made with other settings than \(directories[0]) (pipeline \(partial.pipeline.file)); re-run every partition with the same pipeline and options"
                )
            }
            guard partial.chunks == first.chunks else {
                throw PipelineError(
                    .partials,
                    "\(name) was made from other inputs than \(directories[0]) (the input chunk lists differ); re-run every partition on the same inputs"
                )
            }
            guard partial.libraries == first.libraries, partial.libraries == PipelineRunner.libraryVersions else {
                throw PipelineError(
                    .partials,
                    "\(name) was made by \(describe(partial.libraries)), this merge is \(describe(PipelineRunner.libraryVersions)): run every partition and the merge with the same sketchprep build"
                )
            }
            if let earlier = byIndex[partial.partition.index] {
                throw PipelineError(
                    .partials, "partition \(partial.partition.index)/\(n) is given twice: \(directories[earlier]) and \(name)")
            }
            byIndex[partial.partition.index] = position
        }
        let missing = (0..<n).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw PipelineError(
                .partials,
                "partition(s) \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) missing: run `sketchprep preprocess … --partition \(missing[0])/\(n)` and pass its directory to merge"
            )
        }
        var owner: [Int: Int] = [:]
        for (position, partial) in partials.enumerated() {
            for read in partial.read {
                if let other = owner[read.chunk] {
                    throw PipelineError(
                        .partials,
                        "chunk \(read.chunk) (\(first.chunks[read.chunk].path)) was read by both \(directories[other]) and \(directories[position])"
                    )
                }
                owner[read.chunk] = position
            }
        }
        if let gap = first.chunks.indices.first(where: { owner[$0] == nil }) {
            throw PipelineError(.partials, "no partial read chunk \(gap) (\(first.chunks[gap].path)): the partials do not cover the input")
        }

        var paths = OutputPathCheck()
        paths.inputs(directories, option: "PARTIAL")
        paths.outputDirectory(output, option: "--output")
        try paths.verify()

        var config = try PipelineConfig.parse(text: first.pipelineText, file: first.pipeline.file)
        if !first.categories.isEmpty { config.filters.categories = first.categories }
        config.source.inputs = first.inputs
        config.output.directory = output
        guard config.json == first.pipeline.config else {
            throw PipelineError(
                .partials,
                "\(first.pipeline.file) resolves to another configuration than the partitions recorded; merge with the partitions' own partial.json unchanged"
            )
        }
        let ordered = (0..<n).map { partials[byIndex[$0]!] }
        let orderedDirectories = (0..<n).map { directories[byIndex[$0]!] }

        var map = MapOutput()
        map.chunkList = first.chunks
        for (partial, directory) in zip(ordered, orderedDirectories) {
            map.runs += try runPaths(of: partial, in: directory)
            map.bucketCounts.formUnion(try BucketCounts(sparse: partial.bucketCounts))
            map.records.read += partial.records.read
            map.records.written += partial.records.written
            map.records.filtered += partial.records.filtered
            map.records.rejected += partial.records.rejected
            map.records.sourceErrors += partial.records.sourceErrors
            map.words.formUnion(ClassWords(partial.words))
            map.seenWords.formUnion(ClassWords(partial.seenWords))
            map.seenCountries.formUnion(partial.seenCountries)
            for read in partial.read {
                map.chunks[read.chunk] = .init(bytes: read.bytes, sha256: read.sha256, quarantined: read.quarantined)
            }
        }
        let sources = try map.sourceEntries(first.chunks, recording: RecordedPaths(root: nil))  // recorded by the partitions
        let input = try ReduceInput(map: map, sources: sources, pipeline: first.pipeline)
        let clock = StageClock(command: "merge")
        let runner = PipelineRunner(config: config, pipelineFile: first.pipeline.file, showProgress: showProgress, force: true)
        let quarantine = { (directory: String) in
            try writeQuarantine(
                ordered, directories: orderedDirectories, chunkCount: first.chunks.count,
                to: "\(directory)/\(DatasetLayout.quarantine)")
        }
        // Every step writes into the output's staging area (DatasetTransaction); the whole merge
        // and the finalize step swap it in, so the dataset already in `output` stays whole until then.
        switch step {
        case .all(let parts):
            let transaction = try DatasetTransaction.begin(output)
            defer { transaction.abort() }
            try quarantine(transaction.staging)
            var outcome = try runner.writing(into: transaction.staging).reduce(input, parts: parts, clock: clock)
            try clock.write(to: "\(transaction.staging)/\(DatasetLayout.timings)", jobs: parts, items: map.records.read)
            try transaction.commit()
            outcome.directory = output
            return .dataset(outcome)
        case .part(let part):
            let joined = try DatasetTransaction.joinAsPart(output, part: part.index, of: part.count)
            defer { for lock in joined.locks { lock.release() } }
            let staged = runner.writing(into: joined.staging)
            try staged.refuseOtherReduceRuns(part: part, input: input)
            return .part(try staged.runReducePart(part, input: input))
        case .finalize:
            let transaction = try DatasetTransaction.begin(output, keepingStaging: true)
            defer { transaction.abort() }
            let staged = runner.writing(into: transaction.staging)
            let reports = try staged.readReduceReports()
            try quarantine(transaction.staging)
            var outcome = try staged.finalize(input, reports: reports, clock: clock)
            try clock.write(to: "\(transaction.staging)/\(DatasetLayout.timings)", jobs: reports.count, items: map.records.read)
            try transaction.commit()
            outcome.directory = output
            return .dataset(outcome)
        }
    }

    private static func describe(_ libraries: [String: String]) -> String {
        libraries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// The quarantine in the single run's order: directory entries, then each chunk's lines in
    /// chunk order, taken from the partial that read the chunk.
    private static func writeQuarantine(
        _ partials: [PartialManifest], directories: [String], chunkCount: Int,
        to path: String
    ) throws {
        let out = try AtomicFileWriter(path: path)
        let readers = try directories.map { directory in
            let name = DatasetLayout.quarantine
            switch try DirectoryMember.resolve(name, in: directory, field: "file", file: "\(directory)/\(name)") {
            case let .file(path, _): return QuarantineLines(path: path)
            case .missing: return QuarantineLines(path: "\(directory)/\(name)")  // reported when a line is wanted
            }
        }
        var quarantinedByChunk: [Int: (partition: Int, lines: Int)] = [:]
        for (partition, partial) in partials.enumerated() {
            for read in partial.read { quarantinedByChunk[read.chunk] = (partition, read.quarantined) }
        }
        for _ in 0..<partials[0].rejectedSources { try out.write(try readers[0].next(partialDirectory: directories[0])) }
        for chunk in 0..<chunkCount {
            guard let (partition, lines) = quarantinedByChunk[chunk] else { continue }
            for _ in 0..<lines { try out.write(try readers[partition].next(partialDirectory: directories[partition])) }
        }
        try out.commit()
    }
}

/// Reads a partial's quarantine file line by line (each line with its newline).
private final class QuarantineLines {
    private let reader: InputChunkReader
    private var batch: RawLineBatch?
    private var index = 0

    init(path: String) {
        reader = InputChunkReader(path: path, range: nil, chunk: 0, hashing: false)
    }

    func next(partialDirectory: String) throws -> [UInt8] {
        while batch == nil || index == batch!.entries.count {
            guard let next = reader.nextBatch() else {
                throw PipelineError(
                    .partials,
                    "\(partialDirectory)/\(DatasetLayout.quarantine) has fewer lines than its \(DatasetLayout.partialManifest) counts; re-run that partition"
                )
            }
            if case .sourceError = next.entries.first?.kind {
                throw PipelineError(.partials, "cannot read \(partialDirectory)/\(DatasetLayout.quarantine); re-run that partition")
            }
            batch = next
            index = 0
        }
        defer { index += 1 }
        return Array(batch!.bytes[batch!.entries[index].range]) + [0x0A]
    }
}
