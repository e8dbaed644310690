import Foundation
import SketchIO
import SketchFormats
import SketchDataset

extension PipelineRunner {
    /// The reduce side: merges the sorted runs into dataset order, applies `max_per_class` by
    /// hash rank (the first N of each class in that order are kept, the rest are counted as
    /// filtered), cuts the shards, and writes `manifest.json` and `classes.txt`.
    package func writeDataset(from map: MapOutput, sources: [Manifest.SourceFileEntry],
                              pipeline: Manifest.PipelineInfo, clock: StageClock) throws -> PipelineOutcome {
        try FilterCheck.verify(config.filters, map: map)
        let start = MonotonicClock.now()
        let directory = config.output.directory
        var classes = config.filters.categories.isEmpty
            ? map.words.sorted
            : config.filters.categories
        // A word that differs from an earlier class only by normalization, or (where words name
        // files: stroke-3 `<word>.npz`) only by case, is quarantined with its class.
        let colliding: [[UInt8]: String]
        (classes, colliding) = DataName.separateCollisions(classes, caseInsensitive: config.output.format.shardFormat == nil)
        var collisionRejections: [RejectedLine] = []
        var linesBefore: [UInt32: Int] = [:]
        let labelOf = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, Int32($0)) })

        // Examples in the runs: each is either written (counted as its shard is encoded) or
        // dropped by a quota (counted here), so the count reaches the total.
        let progress = ProgressReporter(unit: "examples written", totalBytes: nil,
                                        totalItems: map.read - map.filtered - map.rejected, enabled: showProgress)
        let writer: DatasetSink
        if let format = config.output.format.shardFormat {
            var sharding = ShardingOptions(format: format, examplesPerShard: config.output.examplesPerShard,
                                           seed: config.output.seed, split: config.split)
            if case .raster = config.encode { sharding.storesImagesAsPNG = true }
            sharding.naming = config.output.layout
            let shards = ShardedDatasetWriter(directory: directory, options: sharding)
            shards.progress = progress
            writer = .shards(shards)
        } else {
            writer = .stroke3(try Stroke3DatasetWriter(directory: directory, classes: classes, layout: config.output.stroke3Layout), progress)
        }
        var merge = try SortedRunMerge(runs: map.runs, memory: map.memory)
        var keptPerClass: [String: Int] = [:]
        var keptPerSplit: [SplitName: [String: Int]] = [:]
        var written = 0
        var quotaFiltered = 0
        var duplicateKeyIDs = 0
        var previousKey: String?
        while let example = try merge.next() {
            // Repeated key_ids are adjacent in dataset order (same hash, same key).
            if example.keyID == previousKey { duplicateKeyIDs += 1 }
            previousKey = example.keyID
            if !colliding.isEmpty, let earlier = colliding[Array(example.word.utf8)] {
                collisionRejections.append(RejectedLine(
                    location: map.location(of: example, linesBefore: &linesBefore), reason: DataName.collisionReason(example.word, earlier: earlier),
                    bytes: try QuarantinedExample(keyID: example.keyID, word: example.word).line()))
                continue
            }
            if let cap = config.filters.maxPerClass, keptPerClass[example.word, default: 0] >= cap {
                quotaFiltered += 1
                progress.advance()
                continue
            }
            let split = example.split ?? config.split.split(forKeyID: example.keyID)
            if let cap = config.splitCounts[split], keptPerSplit[split, default: [:]][example.word, default: 0] >= cap {
                quotaFiltered += 1
                progress.advance()
                continue
            }
            keptPerSplit[split, default: [:]][example.word, default: 0] += 1
            keptPerClass[example.word, default: 0] += 1
            guard let label = labelOf[example.word] else {
                throw PipelineError("internal: class \(example.word) of \(example.keyID) is not in the class list")
            }
            try writer.add(example, label: label, split: split)
            written += 1
        }
        let result = try writer.finish()
        progress.finish()

        var counts: [String: Manifest.SplitCounts] = [:]
        for split in SplitName.allCases {
            let perLabel = result.counts[split] ?? [:]
            var perClass: [String: Int] = [:]
            for (label, count) in perLabel { perClass[classes[Int(label)]] = count }
            counts[split.rawValue] = Manifest.SplitCounts(total: perLabel.values.reduce(0, +), perClass: perClass)
        }
        if !collisionRejections.isEmpty {
            try appendToQuarantine(collisionRejections, path: "\(directory)/\(DatasetLayout.quarantine)")
        }
        let records = RecordCounts(read: map.read, written: written,
                                            filtered: map.filtered + quotaFiltered, rejected: map.rejected + collisionRejections.count,
                                            sourceErrors: map.sourceErrors, duplicateKeyIDs: duplicateKeyIDs)
        guard records.isReconciled else {
            throw PipelineError("record counts do not reconcile: read \(records.read) ≠ written \(records.written)"
                + " + filtered \(records.filtered) + rejected \(records.rejected)")
        }
        let manifest = Manifest(
            pipeline: pipeline, sources: sources,
            classes: classes.enumerated().map { Manifest.ClassEntry(index: $0, word: $1) },
            counts: counts, shards: result.files, records: records, quarantine: DatasetLayout.quarantine,
            libraries: Self.libraryVersions, settings: settings)
        let classList = classes.map { $0 + "\n" }.joined()
        try writeAtomically(classList, to: "\(directory)/\(DatasetLayout.classes)")
        if config.output.layout == .tensorflowTutorial {
            try writeAtomically(classList, to: "\(directory)/\(ShardNaming.tutorialClassesFile)")
        }
        try writeAtomically(try manifest.encoded(), to: "\(directory)/\(DatasetLayout.manifest)")
        clock.addWall("merge_write", MonotonicClock.now() - start)
        return PipelineOutcome(manifest: manifest, directory: directory, upToDate: false, reusedFiles: result.reusedFiles)
    }
}

/// Where the reduce side writes examples: shards (NPY, TFRecord) or per-class sketch-rnn `.npz`.
private enum DatasetSink {
    case shards(ShardedDatasetWriter)
    /// The `.npz` writer and the progress it advances per example (spilling is where its time goes).
    case stroke3(Stroke3DatasetWriter, ProgressReporter)

    func add(_ example: SortedExample, label: Int32, split: SplitName) throws {
        switch self {
        case .shards(let writer):
            try writer.add(DatasetExample(keyID: example.keyID, label: label, payload: example.payload, word: example.word, facts: example.facts),
                           split: split)
        case .stroke3(let writer, let progress):
            try writer.add(example, split: split)
            progress.advance()
        }
    }

    func finish() throws -> ShardWriteResult {
        switch self {
        case .shards(let writer): return try writer.finish()
        case .stroke3(let writer, _): return try writer.finish()
        }
    }
}

extension PipelineRunner {
    /// Adds reduce-side rejections (a class quarantined whole) after the map side's lines.
    private func appendToQuarantine(_ lines: [RejectedLine], path: String) throws {
        let existing = (try? InputFile.readAll(path)) ?? []
        let quarantine = try QuarantineWriter(path: path, maximumMessages: showProgress ? 20 : 0)
        if !existing.isEmpty { try quarantine.addVerbatim(existing) }
        for line in lines { try quarantine.add(line) }
        try quarantine.finish()
    }
}

extension MapOutput {
    /// Where `example` was read: its chunk's input and line (line 0 when the chunk is unknown).
    /// `linesBefore` caches each chunk's line offset, which is counted once per chunk.
    func location(of example: SortedExample, linesBefore: inout [UInt32: Int]) -> SourceLocation {
        guard Int(example.chunk) < chunkList.count else { return SourceLocation(file: "chunk \(example.chunk)", line: 0) }
        let chunk = chunkList[Int(example.chunk)]
        if linesBefore[example.chunk] == nil { linesBefore[example.chunk] = chunk.linesBefore() }
        return SourceLocation(file: chunk.path, line: linesBefore[example.chunk]! + Int(example.ordinal))
    }
}

/// The quarantine line of an example rejected on the reduce side, where its input line is no
/// longer held: `{"key_id":…,"word":…}`.
private struct QuarantinedExample: Encodable {
    var keyID: String
    var word: String

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id", word
    }

    func line() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self))
    }
}
