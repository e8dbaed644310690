import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchRaster

/// What a pipeline run did, for the command's summary.
package struct PipelineOutcome {
    /// The manifest written (or found up to date).
    package var manifest: Manifest
    /// Output directory.
    package var directory: String
    /// True when an existing output already matched inputs and configuration, and nothing was redone.
    package var upToDate: Bool
    /// Shard files already complete and left untouched.
    package var reusedFiles: Int
}

/// Runs a ``PipelineConfig``: read → filter → simplify raw drawings → encode → split → shards,
/// then writes `manifest.json` and `quarantine.ndjson` into the output directory.
package struct PipelineRunner {
    package let config: PipelineConfig
    /// The pipeline file as given on the command line (recorded in the manifest).
    package let pipelineFile: String
    /// Print progress on stderr.
    package let showProgress: Bool
    /// Skip the up-to-date check (shards that already hold the right bytes are still left untouched).
    package let force: Bool

    package init(config: PipelineConfig, pipelineFile: String, showProgress: Bool, force: Bool) {
        self.config = config
        self.pipelineFile = pipelineFile
        self.showProgress = showProgress
        self.force = force
    }

    package static let manifestName = "manifest.json"
    package static let quarantineName = "quarantine.ndjson"

    package func run() throws -> PipelineOutcome {
        guard !config.source.inputs.isEmpty else {
            throw PipelineError("\(pipelineFile): source.inputs is empty and no --input was given")
        }
        let directory = config.output.directory
        var paths = OutputPathCheck()
        paths.inputs(config.source.inputs, option: "source.inputs")
        paths.outputDirectory(directory, option: "output.directory")
        try paths.verify()
        try createDirectories(directory)
        // Regular files are measured before reading (the up-to-date check needs their checksums). A
        // pipe or FIFO can be read only once, and an unreadable file is quarantined by the reading
        // stage: then the up-to-date check is skipped and the sources are measured while they are read.
        let measured: (entries: [Manifest.SourceFileEntry], complete: Bool)
        let collectExamples: () throws -> Collected
        switch config.source.kind {
        case .quickdrawNDJSON:
            var reader = try QuickDrawReader(inputs: config.source.inputs)
            reader.printSkippedSources(tool: config.name)
            measured = Self.measureRegularFiles(reader.files)
            reader.measuresSources = !measured.complete
            collectExamples = { [reader] in try collect(reader) }
        case .imageDirectory:
            let images = try imageFiles()
            measured = Self.measureRegularFiles(images.files.map(\.path))
            collectExamples = { try collectImages(images) }
        }
        let measuredUpFront = measured.complete
        let sources = measured.entries
        let pipelineInfo = Manifest.PipelineInfo(name: config.name, file: pipelineFile, config: config.json)
        if !force, measuredUpFront, let existing = upToDateManifest(pipeline: pipelineInfo, sources: sources) {
            return PipelineOutcome(manifest: existing, directory: directory, upToDate: true, reusedFiles: existing.shards.count)
        }

        // From here until the new manifest is written the directory is incomplete: a manifest
        // present always describes the shards next to it.
        let manifestPath = "\(directory)/\(Self.manifestName)"
        if unlink(manifestPath) != 0 && errno != ENOENT {
            throw PipelineError("cannot remove the old \(manifestPath): \(String(cString: strerror(errno)))")
        }
        let collected = try collectExamples()
        let classes = config.filters.categories.isEmpty
            ? Array(Set(collected.examples.map(\.word))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            : config.filters.categories
        let labelOf = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, Int32($0)) })

        var sharding = ShardingOptions(
            format: config.output.format, examplesPerShard: config.output.examplesPerShard,
            seed: config.output.seed, split: config.split)
        if case .raster = config.encode { sharding.storesImagesAsPNG = true }
        let writer = ShardedDatasetWriter(directory: directory, options: sharding)
        for example in collected.examples {
            try writer.add(DatasetExample(keyID: example.keyID, label: labelOf[example.word]!, payload: example.payload),
                           split: example.split)
        }
        let written = try writer.finish()

        var counts: [String: Manifest.SplitCounts] = [:]
        for split in SplitName.allCases {
            let perLabel = written.counts[split] ?? [:]
            var perClass: [String: Int] = [:]
            for (label, count) in perLabel { perClass[classes[Int(label)]] = count }
            counts[split.rawValue] = Manifest.SplitCounts(total: perLabel.values.reduce(0, +), perClass: perClass)
        }
        let records = Manifest.RecordCounts(read: collected.read, written: collected.examples.count,
                                            filtered: collected.filtered, rejected: collected.rejected,
                                            sourceErrors: collected.sourceErrors,
                                            duplicateKeyIDs: Self.duplicateKeyCount(collected.examples))
        guard records.reconciles else {
            throw PipelineError("record counts do not reconcile: read \(records.read) ≠ written \(records.written)"
                + " + filtered \(records.filtered) + rejected \(records.rejected)")
        }
        let manifest = Manifest(
            pipeline: pipelineInfo,
            sources: measuredUpFront || config.source.kind == .imageDirectory ? sources : collected.sourceDigests.map {
                Manifest.SourceFileEntry(path: $0.path, bytes: $0.bytes, sha256: $0.sha256)
            },
            classes: classes.enumerated().map { Manifest.ClassEntry(index: $0, word: $1) },
            counts: counts, shards: written.files, records: records, quarantine: Self.quarantineName)
        try writeAtomically(try manifest.encoded(), to: manifestPath)
        return PipelineOutcome(manifest: manifest, directory: directory, upToDate: false, reusedFiles: written.reusedFiles)
    }

    /// One encoded drawing (or image) waiting for its class index.
    package struct PendingExample {
        var keyID: String
        var word: String
        var payload: TensorPayload
        /// The split the source itself assigns (image split directories); nil: split by key hash.
        var split: SplitName? = nil
    }

    package struct Collected {
        var examples: [PendingExample] = []
        var read = 0
        var filtered = 0
        var rejected = 0
        var sourceErrors = 0
        /// Inputs hashed while they were read (pipes and FIFOs; empty when measured up front).
        var sourceDigests: [SourceDigest] = []
    }

    /// Size and SHA-256 of each of `paths` that is a readable regular file (through symbolic
    /// links); `complete` is false when any is not (stdin, a pipe, a FIFO, an unreadable file).
    static func measureRegularFiles(_ paths: [String]) -> (entries: [Manifest.SourceFileEntry], complete: Bool) {
        var entries: [Manifest.SourceFileEntry] = []
        for path in paths {
            var status = stat()
            guard path != "-", stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  let entry = try? Manifest.SourceFileEntry.measuring(path: path) else { continue }
            entries.append(entry)
        }
        return (entries, entries.count == paths.count)
    }

    /// Reads every input, quarantining bad lines, filtering, simplifying and encoding the rest.
    private func collect(_ reader: QuickDrawReader) throws -> Collected {
        var collected = Collected()
        let quarantine = try QuarantineWriter(path: "\(config.output.directory)/\(Self.quarantineName)")
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: showProgress)
        var filter = RecordFilter(config.filters)
        var simplifier = Simplifier(options: config.simplification)
        let encode = drawingEncoder()
        collected.sourceDigests = try reader.read(
            onRecord: { record, _ in
                guard filter.admits(record) else {
                    collected.read += 1
                    collected.filtered += 1
                    progress.advance()
                    return
                }
                // A drawing over a resampling cap throws here and is quarantined by the reader.
                let drawing = try config.source.format.prepare(record.drawing, with: &simplifier)
                collected.read += 1
                progress.advance()
                filter.keep(record.word)
                collected.examples.append(PendingExample(keyID: record.keyID, word: record.word, payload: encode(drawing)))
            },
            onRejected: { rejected in
                if rejected.isSourceError {
                    collected.sourceErrors += 1
                } else {
                    collected.read += 1
                    collected.rejected += 1
                    progress.advance()
                }
                try quarantine.add(rejected)
            },
            onProgress: { progress.update(bytesConsumed: $0) })
        progress.finish()
        try quarantine.finish()
        return collected
    }

    /// Examples whose key_id an earlier example already has.
    private static func duplicateKeyCount(_ examples: [PendingExample]) -> Int {
        var seen = Set<String>()
        return examples.reduce(0) { count, example in seen.insert(example.keyID).inserted ? count : count + 1 }
    }

    /// The encoding stage as a function (a raster encoder owns one cairo surface for the whole run).
    private func drawingEncoder() -> (Drawing) -> TensorPayload {
        switch config.encode {
        case let .strokes(options):
            return { drawing in
                let tensor = StrokeTensorEncoder.encode(drawing, options: options)
                return .float32(tensor.values, shape: [tensor.rows, StrokeTensorEncoder.columns])
            }
        case let .raster(options):
            let renderer = StrokeRenderer(options: options.stroke)
            return { options.payload(renderer.render($0)) }
        }
    }

    /// The existing manifest when it was made from the same configuration and sources and every
    /// shard it lists is present with its recorded SHA-256; nil otherwise.
    private func upToDateManifest(pipeline: Manifest.PipelineInfo, sources: [Manifest.SourceFileEntry]) -> Manifest? {
        let directory = config.output.directory
        guard let existing = try? Manifest.read(path: "\(directory)/\(Self.manifestName)"),
              existing.pipeline.config == pipeline.config, existing.sources == sources else { return nil }
        for shard in existing.shards {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(shard.file)"),
                  data.count == shard.bytes, SHA256Hasher.hash([UInt8](data)).hexString == shard.sha256 else { return nil }
        }
        return existing
    }
}

/// The `filters:` stage as a predicate, applied in order: recognized, country, category, per-class cap.
package struct RecordFilter {
    private let recognizedOnly: Bool
    private let countries: Set<String>
    private let categories: Set<String>
    private let maxPerClass: Int?
    private var keptPerClass: [String: Int] = [:]

    package init(_ stage: FilterStage) {
        recognizedOnly = stage.recognizedOnly
        countries = Set(stage.countries)
        categories = Set(stage.categories)
        maxPerClass = stage.maxPerClass
    }

    /// Whether `record` passes every filter; counts nothing (call `keep` once it is kept).
    package func admits(_ record: SketchRecord) -> Bool {
        if recognizedOnly && !record.recognized { return false }
        if !countries.isEmpty && !countries.contains(record.countryCode) { return false }
        return wantsClass(record.word)
    }

    /// Whether one more example of class `word` is wanted (category list, per-class cap); counts nothing.
    package func wantsClass(_ word: String) -> Bool {
        if !categories.isEmpty && !categories.contains(word) { return false }
        if let maxPerClass, keptPerClass[word, default: 0] >= maxPerClass { return false }
        return true
    }

    /// Counts one kept example of class `word` against its cap.
    package mutating func keep(_ word: String) {
        keptPerClass[word, default: 0] += 1
    }
}
