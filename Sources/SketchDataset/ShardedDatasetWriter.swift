import Foundation
import SketchFormats
import SketchIO
import SystemPackage

/// One file of a sharded dataset, as listed in the manifest.
public struct ShardFileEntry: Sendable, Equatable, Codable {
    /// File name inside the output directory.
    public var file: String
    /// The split it belongs to; nil for a file that holds every split (a sketch-rnn `.npz`).
    public var split: SplitName?
    /// Examples it holds.
    public var examples: Int
    /// Size in bytes.
    public var bytes: Int
    /// SHA-256 of the file, lower-case hex.
    public var sha256: String

    package init(file: String, split: SplitName?, examples: Int, bytes: Int, sha256: String) {
        (self.file, self.split, self.examples, self.bytes, self.sha256) = (file, split, examples, bytes, sha256)
    }
}

/// What ``ShardedDatasetWriter/finish()`` did.
public struct ShardWriteResult: Sendable, Equatable {
    /// Every file of the dataset, split by split, shard by shard.
    public var files: [ShardFileEntry]
    /// How many of them were already present with the right SHA-256 and left untouched.
    public var reusedFiles: Int
    /// Stale shard files from an earlier run with another shard count that were removed.
    public var removedFiles: [String]
    /// Examples per split and label.
    public var counts: [SplitName: [Int32: Int]]

    package init(files: [ShardFileEntry], reusedFiles: Int, removedFiles: [String], counts: [SplitName: [Int32: Int]]) {
        (self.files, self.reusedFiles, self.removedFiles, self.counts) = (files, reusedFiles, removedFiles, counts)
    }
}

/// Writes labelled examples, handed over in dataset order, into shard files: each split is cut
/// into shards of `examplesPerShard` examples as the examples arrive.
///
/// - Order: the caller hands examples in the dataset's order (the merge of sorted runs,
///   ``RunMerge``); the writer does not reorder. The split of an example is its own
///   (`split:`) or the key_id hash's (``DatasetSplit``).
/// - Memory: one shard per split (at most `3 × examplesPerShard` examples) is held at a time.
/// - Atomicity and re-runs: a full shard is written under a pending name; ``finish()``, which
///   knows the shard count of each split, renames it to `{split}-{i}-of-{n}`. A file that already
///   exists with exactly the SHA-256 of the new bytes is left untouched (counted in
///   ``ShardWriteResult/reusedFiles``); anything else is replaced. Shard files of the naming scheme
///   that the new layout no longer contains are removed.
public final class ShardedDatasetWriter {
    /// Output directory (must exist).
    public let directory: String
    /// Format, shard size, seed, split.
    public let options: ShardingOptions
    private var pending: [SplitName: [DatasetExample]] = [:]
    private var written: [SplitName: [(entries: [ShardFileEntry], pendingFiles: [String])]] = [:]
    private var counts: [SplitName: [Int32: Int]] = [:]
    private var itemShape: [Int]?
    private var itemDType: NPYDType?

    /// Advanced by one for each example encoded into a shard (nil: no progress).
    package var progress: ProgressReporter?

    /// Starts a dataset in `directory`.
    public init(directory: String, options: ShardingOptions) {
        self.directory = directory
        self.options = options
    }

    /// Adds the next example in dataset order. Formats that need one shape and element type for
    /// all examples (NPY) take them from the first example, and a mismatching one throws ``DatasetError``.
    /// `split` overrides the key_id hash split (a dataset's own train/test directories).
    public func add(_ example: DatasetExample, split: SplitName? = nil) throws {
        if options.format.entry.needsOneShape {
            if let shape = itemShape, let dtype = itemDType {
                guard shape == example.payload.shape, dtype == example.payload.dtype else {
                    throw DatasetError(
                        .output,
                        "example \(example.keyID) is \(example.payload.dtype) \(example.payload.shape), "
                            + "but NPY shards need every example to be \(dtype) \(shape)")
                }
            } else {
                itemShape = example.payload.shape
                itemDType = example.payload.dtype
            }
        }
        let split = split ?? options.split.split(forKeyID: example.keyID)
        counts[split, default: [:]][example.label, default: 0] += 1
        pending[split, default: []].append(example)
        if pending[split]!.count == options.examplesPerShard { try flush(split) }
    }

    /// Writes the last shard of each split, names every shard, removes stale ones and reports the files.
    public func finish() throws -> ShardWriteResult {
        for split in SplitName.allCases where !(pending[split] ?? []).isEmpty { try flush(split) }
        var result = ShardWriteResult(files: [], reusedFiles: 0, removedFiles: [], counts: counts)
        for split in SplitName.allCases {
            let shards = written[split] ?? []
            for (index, shard) in shards.enumerated() {
                for (entry, pendingFile) in zip(shard.entries, shard.pendingFiles) {
                    var entry = entry
                    entry.file = options.naming.fileName(split: split, index: index, count: shards.count, suffix: entry.file)
                    defer { TemporaryFiles.unregister(path(pendingFile)) }
                    if try isComplete(entry) {
                        try? FileSystem.remove(path(pendingFile))
                        result.reusedFiles += 1
                    } else {
                        try renameIntoPlace(path(pendingFile), path(entry.file))
                    }
                    result.files.append(entry)
                }
            }
        }
        result.removedFiles = try Self.removeStaleShards(in: directory, keeping: Set(result.files.map(\.file)))
        return result
    }

    /// Encodes the split's pending examples as its next shard, under pending names, the way the
    /// reduce side writes shards (``ExampleBody``, the format's ``ExampleSink``).
    private func flush(_ split: SplitName) throws {
        let suffixes = options.format.entry.shardSuffixes
        guard !suffixes.isEmpty else {
            throw DatasetError(.invariant, "\(options.format.name) files are not shards: this writer writes shards only")
        }
        let shard = pending[split] ?? []
        pending[split] = []
        let index = written[split]?.count ?? 0
        let pendingName = { (suffix: String) in ".\(split.rawValue)-\(index)\(Self.pendingMarker)\(suffix)" }
        // A shard not yet named is a temporary file of this process until finish() renames it.
        for suffix in suffixes { TemporaryFiles.register(path(pendingName(suffix))) }
        let stream = try options.format.entry.open(
            .shard(directory: directory, split: split, examples: shard.count, fileName: pendingName), options: options)
        var bytes: [UInt8] = []
        for example in shard {
            let body = try ExampleBody.make(
                payload: example.payload, keyID: example.keyID, word: example.word, facts: example.facts,
                encoding: options.exampleEncoding)
            bytes.removeAll(keepingCapacity: true)
            SortedExample(sortKey: 0, keyID: example.keyID, chunk: 0, ordinal: 0, word: example.word, split: split, body: body)
                .serialize(into: &bytes)
            try bytes.withUnsafeBytes { raw in
                var offset = 0
                try stream.append(try RunRecord.parse(raw, offset: &offset), label: example.label)
            }
            progress?.advance()
        }
        let entries = try stream.finish().entries.map { entry in
            var entry = entry
            entry.file = String(entry.file.dropFirst(".\(split.rawValue)-\(index)\(Self.pendingMarker)".count))
            return entry
        }
        written[split, default: []].append((entries, suffixes.map(pendingName)))
    }

    /// Marks a shard written but not yet named (`.train-3.pending.x.npy`).
    static let pendingMarker = ".pending"

    private func path(_ file: String) -> String { "\(directory)/\(file)" }

    /// Renames the finished shard `pending` to its name `target`.
    private func renameIntoPlace(_ pending: String, _ target: String) throws(DatasetError) {
        do {
            try FileSystem.rename(pending, to: target)
        } catch {
            throw DatasetError(.output, "cannot write \(target): cannot rename the finished shard into place: \(error.text)")
        }
    }

    /// True when the file exists with exactly the expected size and SHA-256.
    /// Only a regular file counts: a link planted under a shard's name is replaced, never read.
    private func isComplete(_ entry: ShardFileEntry) throws -> Bool {
        let url = URL(fileURLWithPath: path(entry.file))
        guard let status = try? FileSystem.linkStatus(url.path), status.isRegular, Int(status.size) == entry.bytes,
            let existing = try? Data(contentsOf: url)
        else { return false }
        return SHA256Hasher.hash([UInt8](existing)).hexString == entry.sha256
    }

    /// Removes the shard files of any naming (``ShardNaming``) in `directory` that are not in
    /// `keeping`, and shards left pending by an interrupted run; returns their names.
    package static func removeStaleShards(in directory: String, keeping: Set<String>) throws -> [String] {
        let names = FileSystem.entryNames(of: directory)
        var removed: [String] = []
        for name in names.sorted()
        where !keeping.contains(name)
            && (ShardNaming.isShardFileName(name) || (name.hasPrefix(".") && name.contains(Self.pendingMarker)))
        {
            do {
                try FileSystem.remove("\(directory)/\(name)")
            } catch {
                // Typed `catch … where` hangs the Swift 6.3 compiler's AllocBoxToStack pass: a guard instead.
                guard error == .noSuchFileOrDirectory else {
                    throw DatasetError(.output, "cannot write \(directory)/\(name): cannot remove a stale shard: \(error.text)")
                }
            }
            removed.append(name)
        }
        return removed
    }
}
