import SketchFormats
/// The on-disk format of a sharded dataset.
public enum ShardFormat: String, Sendable, Codable, CaseIterable {
    /// Per shard `{split}-{i:05d}-of-{n:05d}.x.npy` (features, `(N, shape…)`), `.y.npy`
    /// (int32 labels, `(N,)`) and `.keys.txt` (one key_id per line, same order).
    case npy
    /// Per shard `{split}-{i:05d}-of-{n:05d}.tfrecord` of `tf.train.Example`s.
    case tfrecord
}

/// How shard files are named. Every name a dataset's shard files can have is decided here.
public enum ShardNaming: String, Sendable, Codable, CaseIterable {
    /// `{split}-{i:05d}-of-{n:05d}{suffix}`: `train-00000-of-00003.x.npy`, `val-00001-of-00002.tfrecord`.
    case standard
    /// The TensorFlow Quick, Draw! tutorial's `create_dataset.py` names, TFRecord only:
    /// `training.tfrecord-{i:05d}-of-{n:05d}` (train), `eval.tfrecord-…` (val), `test.tfrecord-…`,
    /// and the class file `training.tfrecord.classes` (one word per line, index order).
    case tutorial

    /// The name of shard `index` of `count` in `split`, for the file kind `suffix` (`.x.npy`,
    /// `.y.npy`, `.keys.txt`, `.tfrecord`).
    public func fileName(split: SplitName, index: Int, count: Int, suffix: String) -> String {
        switch self {
        case .standard:
            return ShardingOptions.shardStem(split: split, index: index, count: count) + suffix
        case .tutorial:
            return "\(Self.tutorialBase(split))\(suffix)-\(Self.zeroPadded(index))-of-\(Self.zeroPadded(count))"
        }
    }

    /// The extra class file the layout asks for beside `classes.txt` (nil: none).
    public var classesFileName: String? {
        switch self {
        case .standard: return nil
        case .tutorial: return "training.tfrecord.classes"
        }
    }

    /// Whether `name` is a shard file of any naming (so a run can remove the stale ones).
    package static func isShardFileName(_ name: String) -> Bool {
        isStandardShardFileName(name) || isTutorialShardFileName(name)
    }

    private static let suffixes = [".x.npy", ".y.npy", ".keys.txt", ".tfrecord"]

    private static func tutorialBase(_ split: SplitName) -> String {
        switch split {
        case .train: return "training"
        case .val: return "eval"
        case .test: return "test"
        }
    }

    private static func isStandardShardFileName(_ name: String) -> Bool {
        guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        guard let dash = stem.firstIndex(of: "-"), SplitName(rawValue: String(stem[..<dash])) != nil else { return false }
        return isIndexOfCount(stem[stem.index(after: dash)...])
    }

    private static func isTutorialShardFileName(_ name: String) -> Bool {
        SplitName.allCases.contains { split in
            let prefix = tutorialBase(split) + ".tfrecord-"
            return name.hasPrefix(prefix) && isIndexOfCount(name.dropFirst(prefix.count))
        }
    }

    /// `NNNNN-of-NNNNN`.
    private static func isIndexOfCount(_ text: Substring) -> Bool {
        let numbers = text.split(separator: "-", omittingEmptySubsequences: false)
        return numbers.count == 3 && numbers[1] == "of"
            && [numbers[0], numbers[2]].allSatisfy { $0.count == 5 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    fileprivate static func zeroPadded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(5 - digits.count, 0)) + digits
    }
}

/// Feature names inside each TFRecord `Example`. The defaults are the TensorFlow Quick, Draw!
/// tutorial's (`ink` float list, `shape` int64 list, `class_index` int64).
public struct TFRecordFeatureNames: Sendable, Equatable, Codable {
    /// The values: a float list for float32 payloads, one bytes value (raw bytes) for uint8 payloads.
    public var values: String
    /// The payload's shape as an int64 list.
    public var shape: String
    /// The class index as a one-element int64 list.
    public var label: String

    /// Creates feature names.
    public init(values: String = "ink", shape: String = "shape", label: String = "class_index") {
        self.values = values
        self.shape = shape
        self.label = label
    }
}

/// How examples become shard files.
public struct ShardingOptions: Sendable, Equatable {
    /// File format.
    public var format: ShardFormat
    /// Maximum examples per shard (the last shard of a split holds the rest).
    public var examplesPerShard: Int
    /// Seed of the dataset order (``SortKey``).
    public var seed: UInt64
    /// Train/val/test shares.
    public var split: DatasetSplit
    /// Feature names for TFRecord output.
    public var tfrecordFeatures: TFRecordFeatureNames
    /// TFRecord output of 2-D uint8 payloads (gray rasters) as PNG images with the TF image
    /// feature names instead (see `TFExample.pngImage`).
    public var storesImagesAsPNG = false
    /// How the shard files are named.
    public var naming = ShardNaming.standard

    /// Creates options; `examplesPerShard` must be at least 1.
    public init(format: ShardFormat, examplesPerShard: Int, seed: UInt64, split: DatasetSplit,
                tfrecordFeatures: TFRecordFeatureNames = TFRecordFeatureNames()) {
        precondition(examplesPerShard >= 1, "examplesPerShard must be >= 1")
        self.format = format
        self.examplesPerShard = examplesPerShard
        self.seed = seed
        self.split = split
        self.tfrecordFeatures = tfrecordFeatures
    }

    /// `{split}-{index:05d}-of-{count:05d}`, the stem every file of a shard shares.
    public static func shardStem(split: SplitName, index: Int, count: Int) -> String {
        "\(split.rawValue)-\(ShardNaming.zeroPadded(index))-of-\(ShardNaming.zeroPadded(count))"
    }
}
