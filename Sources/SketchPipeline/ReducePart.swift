import Foundation
import SketchFormats
import SketchDataset

/// What the reduce side works from: the map side's output (one process's, or the partials'
/// joined), the manifest's source list and pipeline record.
package struct ReduceInput {
    package var map: MapOutput
    package var sources: [Manifest.SourceFileEntry]
    package var pipeline: Manifest.PipelineInfo
}

/// `--reduce i/R`: which of the R independent parts of the reduce side a process runs.
package struct ReducePart: Sendable, Equatable {
    package var index: Int
    package var count: Int

    /// Most reduce parts: one per sort-key bucket.
    package static let maximumCount = SortKey.bucketCount

    package init(index: Int, count: Int) {
        (self.index, self.count) = (index, count)
    }

    /// Parses `i/R` with 0 ≤ i < R ≤ ``maximumCount``.
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...Self.maximumCount).contains(count),
              (0..<count).contains(index) else {
            throw PipelineError("--reduce \(text): expected i/R with 0 ≤ i < R ≤ \(Self.maximumCount), e.g. 0/4 (parts are numbered from 0)")
        }
        (self.index, self.count) = (index, count)
    }

    /// The part's report in the dataset directory (read and removed by the finalize step).
    package var reportName: String { ".reduce-\(index)-of-\(count).json" }
    /// The part's quarantined examples (a class quarantined whole), appended by the finalize step.
    package var quarantineName: String { ".reduce-\(index)-of-\(count).quarantine.ndjson" }

    /// The sort-key buckets whose bookkeeping this part owns (duplicate key_ids, quarantined
    /// classes, quota counts): an equal share of the buckets, in order.
    var ownedBuckets: ClosedRange<Int>? {
        let low = index * SortKey.bucketCount / count, high = (index + 1) * SortKey.bucketCount / count - 1
        return low <= high ? low...high : nil
    }
}

/// What one reduce part wrote (`.reduce-i-of-R.json`).
package struct ReducePartReport: Codable, Equatable {
    package var part: Int
    package var parts: Int
    /// Shard files written, with their shard index (class index for `.npz` files) for ordering.
    package var files: [ShardFileEntry]
    package var fileOrder: [Int]
    package var reusedFiles: Int
    /// Examples written per split and class word.
    package var counts: [String: [String: Int]]
    package var written: Int
    package var quotaFiltered: Int
    package var duplicateKeyIDs: Int
    package var quarantined: Int
    /// NPY: element type and shape of the part's examples (every part must agree).
    package var item: String?
    /// CPU seconds of the part and records it read (timings.json).
    package var cpuSeconds: Double
    package var recordsRead: Int

    enum CodingKeys: String, CodingKey {
        case part, parts, files, fileOrder = "file_order", reusedFiles = "reused_files", counts, written,
             quotaFiltered = "quota_filtered", duplicateKeyIDs = "duplicate_key_ids", quarantined, item,
             cpuSeconds = "cpu_seconds", recordsRead = "records_read"
    }
}

extension PipelineConfig {
    /// How this pipeline's shards are written (nil for sketch-rnn `.npz`).
    package var shardingOptions: ShardingOptions? {
        guard let format = output.format.shardFormat else { return nil }
        var sharding = ShardingOptions(format: format, examplesPerShard: output.examplesPerShard, seed: output.seed, split: split)
        if case .raster = encode { sharding.storesImagesAsPNG = true }
        sharding.naming = output.layout
        return sharding
    }

    /// How the map side encodes each example.
    package var exampleEncoding: ExampleBody.Encoding { shardingOptions?.exampleEncoding ?? .stroke3 }
}

extension PipelineRunner {
    /// The class table and quota rule of a reduce over `map`.
    func reduceClasses(_ map: MapOutput) throws -> (table: ClassTable, quotas: QuotaState) {
        try FilterCheck.verify(config.filters, map: map)
        let words = config.filters.categories.isEmpty ? map.words.sorted : config.filters.categories
        let table = ClassTable(words: words, caseInsensitive: config.output.format.shardFormat == nil)
        return (table, QuotaState(classes: table.classes.count, maximumPerClass: config.filters.maxPerClass, splitCounts: config.splitCounts))
    }

    /// Runs reduce part `part`: writes its shards (shard formats: an equal share of each split's
    /// shards; `.npz`: the classes whose index is ≡ i mod R) into the output directory, with its
    /// report and quarantined examples, and returns the report. Every part plans the whole
    /// dataset from the bucket counts (``ReducePlan``), then reads only the sort-key range its
    /// shards and owned buckets lie in.
    package func runReducePart(_ part: ReducePart, input: ReduceInput, progressEnabled: Bool) throws -> ReducePartReport {
        let cpuStart = StageClock.cpuSeconds(thread: true)
        let directory = config.output.directory
        let (table, quotas) = try reduceClasses(input.map)
        let quarantine = try AtomicFileWriter(path: "\(directory)/\(part.quarantineName)")
        var report = ReducePartReport(part: part.index, parts: part.count, files: [], fileOrder: [], reusedFiles: 0, counts: [:],
                                      written: 0, quotaFiltered: 0, duplicateKeyIDs: 0, quarantined: 0, item: nil,
                                      cpuSeconds: 0, recordsRead: 0)
        let owned = part.ownedBuckets
        var state: QuotaState
        var range: ClosedRange<Int>?
        var writer: PartWriter
        if let sharding = config.shardingOptions {
            let plan = try ReducePlan(table: table, counts: input.map.bucketCounts, quotas: quotas, runs: input.map.runs)
            let shards = PartShards(plan: plan, options: sharding, part: part)
            range = [owned, shards.buckets].compactMap { $0 }.reduce(nil) { (sum: ClosedRange<Int>?, next) in
                sum.map { min($0.lowerBound, next.lowerBound)...max($0.upperBound, next.upperBound) } ?? next
            }
            state = plan.state(before: range?.lowerBound ?? 0, quotas: quotas)
            writer = .shards(shards, ShardCursor(plan: plan, first: range?.lowerBound ?? 0), directory)
        } else {
            range = 0...(SortKey.bucketCount - 1)
            state = quotas
            let mine = table.classes.indices.filter { $0 % part.count == part.index }
            writer = .stroke3(try Stroke3DatasetWriter(directory: directory, classes: mine.map { ($0, table.classes[$0]) },
                                                       layout: config.output.stroke3Layout), Set(mine))
        }
        let progress = ProgressReporter(unit: part.count == 1 ? "examples reduced" : "examples reduced by part \(part.index + 1)/\(part.count)",
                                        totalBytes: nil, enabled: progressEnabled)
        var previousKey: [UInt8] = []
        if let range {
            var merge = try RunMerge(runs: input.map.runs, keys: SortKey.keys(ofBuckets: range))
            while let record = try merge.next() {
                report.recordsRead += 1
                progress.advance()
                let isOwned = owned?.contains(SortKey.bucket(of: record.sortKey)) ?? false
                // Repeated key_ids are adjacent in dataset order (same hash, same key, same bucket).
                let repeated = previousKey.withUnsafeBytes { RunRecord.compareBytes($0, record.keyID) == 0 } && report.recordsRead > 1
                previousKey.removeAll(keepingCapacity: true)
                previousKey.append(contentsOf: record.keyID)
                if repeated && isOwned { report.duplicateKeyIDs += 1 }
                let label: Int
                switch table.lookup(record.word) {
                case .label(let found): label = found
                case let .colliding(word, _):
                    if isOwned {
                        report.quarantined += 1
                        try quarantine.write(try QuarantinedExample(keyID: record.keyIDString, word: word).line() + [0x0A])
                    }
                    continue
                case .unknown:
                    throw PipelineError("internal: class \(record.wordString) of \(record.keyIDString) is not in the class list")
                }
                let split = SplitName.allCases.firstIndex(of: record.split)!
                if case let .stroke3(_, mine) = writer, !mine.contains(label) { continue }
                guard state.admit(label, split) else {
                    if isOwned || !writer.isSharded { report.quotaFiltered += 1 }
                    continue
                }
                try writer.add(record, label: label, split: split, classes: table.classes, report: &report)
            }
        }
        progress.finish()
        try writer.finish(report: &report)
        try quarantine.commit()
        report.cpuSeconds = StageClock.cpuSeconds(thread: true) - cpuStart
        try writeAtomically(try PartialRun.encodeJSON(report), to: "\(directory)/\(part.reportName)")
        return report
    }
}

/// The shards one part writes: per split, shards `[first, end)` of `count`, i.e. kept examples
/// `[firstExample, endExample)` of the split, and the buckets that hold them.
struct PartShards {
    struct Split {
        var count: Int
        var first: Int
        var end: Int
        var firstExample: Int
        var endExample: Int
        var total: Int
    }
    let splits: [Split]
    let options: ShardingOptions
    /// The buckets holding this part's examples (nil: it writes no shard).
    let buckets: ClosedRange<Int>?

    init(plan: ReducePlan, options: ShardingOptions, part: ReducePart) {
        self.options = options
        let perShard = options.examplesPerShard
        var splits: [Split] = []
        var buckets: ClosedRange<Int>?
        for (index, total) in plan.totals.enumerated() {
            let count = (total + perShard - 1) / perShard
            let first = count * part.index / part.count, end = count * (part.index + 1) / part.count
            let split = Split(count: count, first: first, end: end, firstExample: first * perShard,
                              endExample: min(end * perShard, total), total: total)
            splits.append(split)
            if split.firstExample < split.endExample {
                let low = plan.bucket(holding: split.firstExample, split: index), high = plan.bucket(holding: split.endExample - 1, split: index)
                buckets = buckets.map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
            }
        }
        self.splits = splits
        self.buckets = buckets
    }
}

/// The running position of each split in the dataset order while a part reads its range.
struct ShardCursor {
    /// Per split: the index of the next kept example.
    var next: [Int]
    var streams: [ShardStream?] = [nil, nil, nil]
    var streamShard: [Int] = [-1, -1, -1]

    init(plan: ReducePlan, first bucket: Int) {
        next = plan.prefix.map { $0[bucket] }
    }
}

/// Where a part sends kept examples.
private enum PartWriter {
    case shards(PartShards, ShardCursor, String)
    /// The `.npz` writer and the class indices the part owns.
    case stroke3(Stroke3DatasetWriter, Set<Int>)

    var isSharded: Bool { if case .shards = self { return true } else { return false } }

    mutating func add(_ record: RunRecord, label: Int, split: Int, classes: [String], report: inout ReducePartReport) throws {
        switch self {
        case .shards(let shards, var cursor, let directory):
            let index = cursor.next[split]
            cursor.next[split] += 1
            let plan = shards.splits[split]
            if index >= plan.firstExample && index < plan.endExample {
                let shard = index / shards.options.examplesPerShard
                if cursor.streamShard[split] != shard {
                    try Self.close(cursor.streams[split], order: cursor.streamShard[split], split: split, report: &report)
                    let name = SplitName.allCases[split]
                    let examples = min(shards.options.examplesPerShard, plan.total - shard * shards.options.examplesPerShard)
                    let naming = shards.options.naming
                    cursor.streams[split] = ShardStream(directory: directory, options: shards.options, split: name, examples: examples) {
                        naming.fileName(split: name, index: shard, count: plan.count, suffix: $0)
                    }
                    cursor.streamShard[split] = shard
                }
                try cursor.streams[split]!.add(record, label: Int32(label))
                if report.item == nil && shards.options.format == .npy { report.item = "\(record.element.dtype) \(record.shape)" }
                report.written += 1
                report.counts[SplitName.allCases[split].rawValue, default: [:]][classes[label], default: 0] += 1
            }
            self = .shards(shards, cursor, directory)
        case .stroke3(let writer, _):
            try writer.add(record, split: SplitName.allCases[split])
            report.written += 1
            report.counts[SplitName.allCases[split].rawValue, default: [:]][classes[label], default: 0] += 1
        }
    }

    private static func close(_ stream: ShardStream?, order: Int, split: Int, report: inout ReducePartReport) throws {
        guard let stream else { return }
        let (entries, reused) = try stream.finish()
        report.files += entries
        report.fileOrder += entries.map { _ in split * (1 << 40) + order }
        report.reusedFiles += reused
    }

    func finish(report: inout ReducePartReport) throws {
        switch self {
        case .shards(_, let cursor, _):
            for split in 0..<3 { try Self.close(cursor.streams[split], order: cursor.streamShard[split], split: split, report: &report) }
        case .stroke3(let writer, _):
            let result = try writer.finish()
            report.files += result.files
            report.fileOrder += result.order
        }
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
