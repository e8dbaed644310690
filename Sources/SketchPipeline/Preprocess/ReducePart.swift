import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// What the reduce side works from: the map side's output (one process's, or the partials'
/// joined), the manifest's source list and pipeline record.
package struct ReduceInput {
    package let map: MapOutput
    package let sources: [Manifest.SourceFileEntry]
    package let pipeline: Manifest.PipelineInfo
    /// A SHA-256 of what the reduce side is given (tallies, run files, bucket counts, sources): parts
    /// written for other partials are refused by the finalize step. Taken once (it encodes every
    /// source: 12,800 images took about 15 ms), for every part and the finalize step.
    package let identity: String

    package init(map: MapOutput, sources: [Manifest.SourceFileEntry], pipeline: Manifest.PipelineInfo) throws {
        (self.map, self.sources, self.pipeline) = (map, sources, pipeline)
        identity = try Self.identity(map: map, sources: sources)
    }

    private static func identity(map: MapOutput, sources: [Manifest.SourceFileEntry]) throws -> String {
        var hasher = SHA256Hasher()
        hasher.update(
            Array(
                "\(map.records.read) \(map.records.filtered) \(map.records.rejected) \(map.records.sourceErrors) \(map.runs.count)\n".utf8))
        map.bucketCounts.hash(into: &hasher)
        hasher.update(try PartialRun.encodeJSON(sources))
        return hasher.finalize().hexString
    }
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
            (0..<count).contains(index)
        else {
            throw PipelineError(
                .configuration,
                "--reduce \(text): expected i/R with 0 ≤ i < R ≤ \(Self.maximumCount), e.g. 0/4 (parts are numbered from 0)")
        }
        (self.index, self.count) = (index, count)
    }

    /// The part's report in the dataset directory (read and removed by the finalize step).
    package var reportName: String { DatasetLayout.reduceReport(part: index, of: count) }
    /// The part's quarantined examples (a class quarantined whole), appended by the finalize step.
    package var quarantineName: String { DatasetLayout.reduceQuarantine(part: index, of: count) }

    /// The sort-key buckets whose bookkeeping this part owns (duplicate key_ids, quarantined
    /// classes, quota counts): an equal share of the buckets, in order.
    var ownedBuckets: ClosedRange<Int>? {
        let low = index * SortKey.bucketCount / count
        let high = (index + 1) * SortKey.bucketCount / count - 1
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
    /// ``ReduceInput/identity`` of the input the part reduced (the finalize step checks it).
    package var input: String

    enum CodingKeys: String, CodingKey {
        case part, parts, files
        case fileOrder = "file_order"
        case reusedFiles = "reused_files"
        case counts, written
        case
            quotaFiltered = "quota_filtered"
        case duplicateKeyIDs = "duplicate_key_ids"
        case quarantined, item
        case
            cpuSeconds = "cpu_seconds"
        case recordsRead = "records_read"
        case input
    }
}

extension PipelineConfig {
    /// How this pipeline's files are written.
    package var outputOptions: ShardingOptions {
        var options = ShardingOptions(format: output.format, examplesPerShard: output.examplesPerShard, seed: output.seed, split: split)
        if case .raster = encode { options.storesImagesAsPNG = true }
        options.naming = output.layout
        options.stroke3Layout = output.stroke3Layout
        return options
    }

    /// How the map side encodes each example.
    package var exampleEncoding: ExampleBody.Encoding { outputOptions.exampleEncoding }
}

extension PipelineRunner {
    /// The class table and quota rule of a reduce over `map`.
    func reduceClasses(_ map: MapOutput) throws -> (table: ClassTable, quotas: QuotaState) {
        try FilterCheck.verify(config.filters, map: map)
        let words = config.filters.categories.isEmpty ? map.words.sorted : config.filters.categories
        let table = ClassTable(words: words, caseInsensitive: config.output.format.entry.namesFilesByWord)
        return (
            table, QuotaState(classes: table.classes.count, maximumPerClass: config.filters.maxPerClass, splitCounts: config.splitCounts)
        )
    }

    /// Runs reduce part `part`: writes its shards (shard formats: an equal share of each split's
    /// shards; `.npz`: the classes whose index is ≡ i mod R) into the output directory, with its
    /// report and quarantined examples, and returns the report. Every part plans the whole
    /// dataset from the bucket counts (``ReducePlan``), then reads only the sort-key range its
    /// shards and owned buckets lie in.
    package func runReducePart(_ part: ReducePart, input: ReduceInput, progress shared: ReduceProgress? = nil) throws -> ReducePartReport {
        let cpuStart = StageClock.cpuSeconds(thread: true)
        let directory = config.output.directory
        let (table, quotas) = try reduceClasses(input.map)
        let quarantine = try AtomicFileWriter(path: "\(directory)/\(part.quarantineName)")
        TestStopPoint.reduce.reached()
        var report = ReducePartReport(
            part: part.index, parts: part.count, files: [], fileOrder: [], reusedFiles: 0, counts: [:],
            written: 0, quotaFiltered: 0, duplicateKeyIDs: 0, quarantined: 0, item: nil,
            cpuSeconds: 0, recordsRead: 0, input: input.identity)
        let owned = part.ownedBuckets
        var state: QuotaState
        var range: ClosedRange<Int>?
        let writer: PartWriter
        let options = config.outputOptions
        switch options.format.entry.grouping {
        case .shards:
            let plan = try ReducePlan(table: table, counts: input.map.bucketCounts, quotas: quotas, runs: input.map.runs)
            let shards = PartShards(plan: plan, options: options, part: part)
            range = [owned, shards.buckets].compactMap { $0 }.reduce(nil) { (sum: ClosedRange<Int>?, next) in
                sum.map { min($0.lowerBound, next.lowerBound)...max($0.upperBound, next.upperBound) } ?? next
            }
            state = plan.state(before: range?.lowerBound ?? 0, quotas: quotas)
            writer = PartWriter(
                shards: shards, plan: plan, firstBucket: range?.lowerBound ?? 0, directory: directory,
                classes: table.classes.count)
        case .classes:
            range = 0...(SortKey.bucketCount - 1)
            state = quotas
            let mine = table.classes.indices.filter { $0 % part.count == part.index }
            writer = PartWriter(
                classes: try options.format.entry.open(
                    .classes(directory: directory, classes: mine.map { ($0, table.classes[$0]) }), options: options),
                owned: Set(mine), classes: table.classes.count)
        }
        // Counted against the examples in the part's range (quota-dropped ones included); when the
        // parts of one process share the line, each counts the records of its owned buckets (the
        // parts' owned buckets cover the dataset once), in steps of 1,024.
        let progress = shared ?? ReduceProgress(total: range.map(input.map.bucketCounts.total(inBuckets:)) ?? 0, enabled: showProgress)
        var unreported = 0
        var previousKey: [UInt8] = []
        if let range {
            var merge = try RunMerge(runs: input.map.runs, keys: SortKey.keys(ofBuckets: range))
            while let record = try merge.next() {
                report.recordsRead += 1
                let isOwned = owned?.contains(SortKey.bucket(of: record.sortKey)) ?? false
                if isOwned || shared == nil { unreported += 1 }
                if unreported == 1024 {
                    progress.advance(by: unreported)
                    unreported = 0
                }
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
                    throw PipelineError(
                        .invariant, "internal: class \(record.wordString) of \(record.keyIDString) is not in the class list")
                }
                let split = record.splitIndex
                if !writer.isSharded && !writer.ownedClasses.contains(label) { continue }
                guard state.admit(label, split) else {
                    if isOwned || !writer.isSharded { report.quotaFiltered += 1 }
                    continue
                }
                try writer.add(record, label: label, split: split)
            }
        }
        progress.advance(by: unreported)
        if shared == nil { progress.finish() }
        try writer.finish(classes: table.classes, report: &report)
        try quarantine.commit()
        report.cpuSeconds = StageClock.cpuSeconds(thread: true) - cpuStart
        try writeAtomically(try PartialRun.encodeJSON(report), to: "\(directory)/\(part.reportName)")
        return report
    }
}

/// The reduce side's progress line ("N of T examples written"), shared by the parts of one process.
package final class ReduceProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let reporter: ProgressReporter

    package init(total: Int, enabled: Bool) {
        reporter = ProgressReporter(unit: "examples written", totalBytes: nil, totalItems: total, enabled: enabled)
    }

    package func advance(by count: Int) {
        lock.lock()
        reporter.advance(by: count)
        lock.unlock()
    }

    package func finish() {
        lock.lock()
        reporter.finish()
        lock.unlock()
    }
}

/// The shards one part writes: per split, shards `[first, end)` of `count`, i.e. kept examples
/// `[firstExample, endExample)` of the split (part i of R takes range (i + k) mod R of split k's R
/// equal ranges), and the buckets that hold them.
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
            // A split's shards are cut into R ranges, and split k's ranges go to the parts rotated
            // by k: the parts that get a split's odd shards differ from split to split (with two
            // parts, the one validation and the one test shard go to different parts).
            let slot = (part.index + index) % part.count
            let first = count * slot / part.count
            let end = count * (slot + 1) / part.count
            let split = Split(
                count: count, first: first, end: end, firstExample: first * perShard,
                endExample: min(end * perShard, total), total: total)
            splits.append(split)
            if split.firstExample < split.endExample {
                let low = plan.bucket(holding: split.firstExample, split: index)
                let high = plan.bucket(holding: split.endExample - 1, split: index)
                buckets = buckets.map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
            }
        }
        self.splits = splits
        self.buckets = buckets
    }
}

/// Where a part sends kept examples: its shards' sinks (with each split's running position in
/// the dataset order) or, for a format with one file per class, its classes' sink. Counts
/// examples per split and label.
private final class PartWriter {
    private let shards: PartShards?
    private let directory: String
    private let classSink: (any ExampleSink)?
    /// Per-class formats: the class indices the part owns.
    let ownedClasses: Set<Int>
    /// Per split: the index of the next kept example in the split.
    private var next: [Int]
    private var streams: [(any ExampleSink)?] = [nil, nil, nil]
    private var streamShard = [-1, -1, -1]
    /// Per split and label: examples written.
    private var written: [[Int]]
    private var item: String?
    private var files: [(order: Int, entry: ShardFileEntry)] = []
    private var reused = 0

    init(shards: PartShards, plan: ReducePlan, firstBucket: Int, directory: String, classes: Int) {
        self.shards = shards
        self.directory = directory
        classSink = nil
        ownedClasses = []
        next = plan.prefix.map { $0[firstBucket] }
        written = [[Int]](repeating: [Int](repeating: 0, count: classes), count: 3)
    }

    init(classes sink: any ExampleSink, owned: Set<Int>, classes: Int) {
        shards = nil
        directory = ""
        classSink = sink
        ownedClasses = owned
        next = [0, 0, 0]
        written = [[Int]](repeating: [Int](repeating: 0, count: classes), count: 3)
    }

    var isSharded: Bool { shards != nil }

    /// Takes the next kept example of `label` in split `split` (0…2).
    func add(_ record: RunRecord, label: Int, split: Int) throws {
        guard let shards else {
            try classSink!.append(record, label: Int32(label))
            written[split][label] += 1
            return
        }
        let index = next[split]
        next[split] += 1
        let plan = shards.splits[split]
        guard index >= plan.firstExample && index < plan.endExample else { return }
        let options = shards.options
        let perShard = options.examplesPerShard
        let shard = index / perShard
        if streamShard[split] != shard {
            try close(split)
            let name = record.split
            let naming = options.naming
            streams[split] = try options.format.entry.open(
                .shard(
                    directory: directory, split: name, examples: min(perShard, plan.total - shard * perShard),
                    fileName: { naming.fileName(split: name, index: shard, count: plan.count, suffix: $0) }),
                options: options)
            streamShard[split] = shard
        }
        try streams[split]!.append(record, label: Int32(label))
        if item == nil && options.format.entry.needsOneShape { item = "\(record.element.dtype) \(record.shape)" }
        written[split][label] += 1
    }

    private func close(_ split: Int) throws {
        guard let stream = streams[split] else { return }
        let result = try stream.finish()
        files += result.entries.map { (split << 40 + streamShard[split], $0) }
        reused += result.reused
        streams[split] = nil
    }

    /// Closes the last shards (or the classes' files) and fills in `report`.
    func finish(classes: [String], report: inout ReducePartReport) throws {
        if let classSink {
            let result = try classSink.finish()
            files += zip(result.order ?? [], result.entries).map { ($0, $1) }
            reused += result.reused
        } else {
            for split in 0..<3 { try close(split) }
        }
        report.files = files.map(\.entry)
        report.fileOrder = files.map(\.order)
        report.reusedFiles = reused
        report.item = item
        for (split, perLabel) in written.enumerated() {
            for (label, count) in perLabel.enumerated() where count > 0 {
                report.counts[SplitName.allCases[split].rawValue, default: [:]][classes[label]] = count
                report.written += count
            }
        }
    }
}

/// The quarantine line of an example rejected on the reduce side, where its input line is no
/// longer held: `{"key_id":…,"word":…}`.
private struct QuarantinedExample: Encodable {
    var keyID: String
    var word: String

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case word
    }

    func line() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self))
    }
}
