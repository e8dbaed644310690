import SketchFormats
import Foundation

/// One file of a sharded dataset, as listed in the manifest.
public struct ShardFileEntry: Sendable, Equatable, Codable {
    /// File name inside the output directory.
    public var file: String
    /// The split it belongs to.
    public var split: SplitName
    /// Examples it holds.
    public var examples: Int
    /// Size in bytes.
    public var bytes: Int
    /// SHA-256 of the file, lower-case hex.
    public var sha256: String
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
}

/// A problem with the examples handed to the writer (e.g. NPY shards with mixed shapes).
public struct ShardWriterError: Error, CustomStringConvertible {
    /// What is wrong, naming the example.
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Collects labelled examples, assigns each to train/val/test by its key_id, shuffles each split
/// with a seeded SplitMix64 Fisher–Yates and writes the shards into a directory.
///
/// - Determinism: the same examples in the same order with the same options give byte-identical
///   files. The split depends on the key_id alone (``DatasetSplit``); the shuffle of a split is
///   seeded with `seed ^ FNV1a64(split name)` and applied to the split's examples in arrival order.
/// - Atomicity and re-runs: each file is written to a temporary name and renamed into place. A file
///   that already exists with exactly the SHA-256 of the bytes it should hold is complete and is
///   left untouched (counted in ``ShardWriteResult/reusedFiles``); anything else is replaced.
///   Shard files of the same naming scheme that the new layout no longer contains are removed.
/// - Memory: every example is held until ``finish()`` (the shuffle needs them all): about
///   900 bytes per 75×3 stroke tensor, 784 per 28×28 bitmap, plus the key_id.
public final class ShardedDatasetWriter {
    /// Output directory (must exist).
    public let directory: String
    /// Format, shard size, seed, split.
    public let options: ShardingOptions
    private var examples: [SplitName: [DatasetExample]] = [:]
    private var itemShape: [Int]?
    private var itemDType: NPYDType?

    /// Starts a dataset in `directory`.
    public init(directory: String, options: ShardingOptions) {
        self.directory = directory
        self.options = options
    }

    /// Adds an example. NPY shards need one shape and element type for all examples; the first
    /// example fixes them and a mismatching one throws ``ShardWriterError``. `split` overrides the
    /// key_id hash split (a dataset's own train/test directories, e.g. TU-Berlin's).
    public func add(_ example: DatasetExample, split: SplitName? = nil) throws {
        if options.format == .npy {
            if let shape = itemShape, let dtype = itemDType {
                guard shape == example.payload.shape, dtype == example.payload.dtype else {
                    throw ShardWriterError("example \(example.keyID) is \(example.payload.dtype) \(example.payload.shape), "
                        + "but NPY shards need every example to be \(dtype) \(shape)")
                }
            } else {
                itemShape = example.payload.shape
                itemDType = example.payload.dtype
            }
        }
        examples[split ?? options.split.split(forKeyID: example.keyID), default: []].append(example)
    }

    /// Shuffles, writes every shard, removes stale ones and reports the files.
    public func finish() throws -> ShardWriteResult {
        var result = ShardWriteResult(files: [], reusedFiles: 0, removedFiles: [], counts: [:])
        for split in SplitName.allCases {
            let members = examples[split] ?? []
            guard !members.isEmpty else { continue }
            var perLabel: [Int32: Int] = [:]
            for example in members { perLabel[example.label, default: 0] += 1 }
            result.counts[split] = perLabel

            let shuffled = SeededShuffle.shuffled(members, seed: options.seed ^ FNV1a64.hash(split.rawValue))
            let shardCount = (shuffled.count + options.examplesPerShard - 1) / options.examplesPerShard
            for index in 0..<shardCount {
                let start = index * options.examplesPerShard
                let shard = shuffled[start..<min(start + options.examplesPerShard, shuffled.count)]
                let stem = ShardingOptions.shardStem(split: split, index: index, count: shardCount)
                for (suffix, bytes) in try encode(shard) {
                    let entry = ShardFileEntry(file: stem + suffix, split: split, examples: shard.count,
                                               bytes: bytes.count, sha256: SHA256Hasher.hash(bytes).hexString)
                    if try isComplete(entry) {
                        result.reusedFiles += 1
                    } else {
                        try writeAtomically(bytes, to: path(entry.file))
                    }
                    result.files.append(entry)
                }
            }
        }
        result.removedFiles = try removeStaleShards(keeping: Set(result.files.map(\.file)))
        return result
    }

    /// The files of one shard: suffix → bytes.
    private func encode(_ shard: ArraySlice<DatasetExample>) throws -> [(String, [UInt8])] {
        switch options.format {
        case .npy:
            let shape = [shard.count] + (itemShape ?? [])
            let features: [UInt8]
            switch itemDType ?? .float32 {
            case .uint8:
                var values: [UInt8] = []
                for example in shard { if case let .uint8(v, _) = example.payload { values += v } }
                features = NPYWriter.encode(values, dtype: .uint8, shape: shape)
            default:
                var values: [Float] = []
                values.reserveCapacity(shape.reduce(1, *))
                for example in shard { if case let .float32(v, _) = example.payload { values += v } }
                features = NPYWriter.encode(values, dtype: .float32, shape: shape)
            }
            let labels = NPYWriter.encode(shard.map(\.label), dtype: .int32, shape: [shard.count])
            let keys = Array(shard.map { $0.keyID + "\n" }.joined().utf8)
            return [(".x.npy", features), (".y.npy", labels), (".keys.txt", keys)]
        case .tfrecord:
            var bytes: [UInt8] = []
            let names = options.tfrecordFeatures
            for example in shard {
                if options.storesImagesAsPNG, case let .uint8(pixels, shape) = example.payload, shape.count == 2 {
                    bytes += TFRecordWriter.frame(try TFExample.pngImage(pixels: pixels, height: shape[0], width: shape[1],
                                                                         label: example.label).serialized())
                    continue
                }
                let values: TFExample.Feature
                switch example.payload {
                case let .float32(v, _): values = .floats(v)
                case let .uint8(v, _): values = .bytes([v])
                }
                let record = TFExample(features: [
                    names.values: values,
                    names.shape: .int64s(example.payload.shape.map(Int64.init)),
                    names.label: .int64s([Int64(example.label)]),
                ])
                bytes += TFRecordWriter.frame(record.serialized())
            }
            return [(".tfrecord", bytes)]
        }
    }

    private func path(_ file: String) -> String { "\(directory)/\(file)" }

    /// True when the file exists with exactly the expected size and SHA-256.
    private func isComplete(_ entry: ShardFileEntry) throws -> Bool {
        let url = URL(fileURLWithPath: path(entry.file))
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              (attributes[.size] as? Int) == entry.bytes,
              let existing = try? Data(contentsOf: url) else { return false }
        return SHA256Hasher.hash([UInt8](existing)).hexString == entry.sha256
    }

    /// Removes `{train,val,test}-NNNNN-of-NNNNN.*` files not in `keeping`; returns their names.
    private func removeStaleShards(keeping: Set<String>) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed: [String] = []
        for name in names.sorted() where !keeping.contains(name) && Self.isShardFileName(name) {
            guard unlink(path(name)) == 0 || errno == ENOENT else {
                throw FileWriteError(path: path(name), reason: "cannot remove a stale shard: \(String(cString: strerror(errno)))")
            }
            removed.append(name)
        }
        return removed
    }

    /// Whether `name` follows the shard naming scheme (with one of the shard suffixes).
    package static func isShardFileName(_ name: String) -> Bool {
        let suffixes = [".x.npy", ".y.npy", ".keys.txt", ".tfrecord"]
        guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        guard let dash = stem.firstIndex(of: "-"), SplitName(rawValue: String(stem[..<dash])) != nil else { return false }
        let numbers = stem[stem.index(after: dash)...].split(separator: "-", omittingEmptySubsequences: false)
        return numbers.count == 3 && numbers[1] == "of"
            && [numbers[0], numbers[2]].allSatisfy { $0.count == 5 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
