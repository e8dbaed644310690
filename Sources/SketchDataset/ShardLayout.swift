import SketchFormats

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

/// How examples become a dataset's files.
public struct ShardingOptions: Sendable, Equatable {
    /// File format (an entry of the registry, ``OutputFormat/allCases``).
    public var format: OutputFormat
    /// Maximum examples per shard (the last shard of a split holds the rest).
    public var examplesPerShard: Int
    /// Seed of the dataset order (``SortKey``).
    public var seed: UInt64
    /// Train/val/test shares.
    public var split: DatasetSplit
    /// Feature names for TFRecord output.
    public var tfrecordFeatures: TFRecordFeatureNames
    /// TFRecord and WebDataset output of 2-D uint8 payloads (gray rasters) as PNG images (TFRecord:
    /// with the TF image feature names, `TFExample.pngImage`; WebDataset: `<key>.png`).
    public var storesImagesAsPNG = false
    /// How shard files are named.
    public var naming = ShardNaming.standard
    /// The layout of sketch-rnn `.npz` files (``OutputFormat/npz``).
    package var stroke3Layout = Stroke3Layout.standard

    /// Creates options; `examplesPerShard` must be at least 1.
    public init(
        format: OutputFormat, examplesPerShard: Int, seed: UInt64, split: DatasetSplit,
        tfrecordFeatures: TFRecordFeatureNames = TFRecordFeatureNames()
    ) {
        precondition(examplesPerShard >= 1, "examplesPerShard must be >= 1")
        self.format = format
        self.examplesPerShard = examplesPerShard
        self.seed = seed
        self.split = split
        self.tfrecordFeatures = tfrecordFeatures
    }
}

/// How shard files are named: the one place that spells the naming rule.
public enum ShardNaming: String, Sendable, Codable, CaseIterable {
    /// `{split}-{i:05d}-of-{n:05d}` + `.x.npy` / `.y.npy` / `.keys.txt` / `.tfrecord`.
    case standard
    /// The TensorFlow Quick, Draw! tutorial's `create_dataset.py` layout (TFRecord only):
    /// `training.tfrecord-{i:05d}-of-{n:05d}` (train), `eval.tfrecord-…` (val), `test.tfrecord-…`,
    /// and the class file `training.tfrecord.classes`.
    case tensorflowTutorial = "tensorflow-tutorial"

    /// The name of shard `index` of `count` of `split`, for the file with `suffix` (`.x.npy`, …).
    public func fileName(split: SplitName, index: Int, count: Int, suffix: String) -> String {
        let numbers = "\(Self.zeroPadded(index))-of-\(Self.zeroPadded(count))"
        switch self {
        case .standard: return "\(split.rawValue)-\(numbers)\(suffix)"
        case .tensorflowTutorial: return "\(Self.tutorialPrefix[split]!)-\(numbers)"
        }
    }

    /// The tutorial's class file (one word per line, label order), next to the shards.
    public static let tutorialClassesFile = "training.tfrecord.classes"

    private static let tutorialPrefix: [SplitName: String] = [.train: "training.tfrecord", .val: "eval.tfrecord", .test: "test.tfrecord"]

    /// Whether `name` is a shard file of either naming.
    public static func isShardFileName(_ name: String) -> Bool {
        for (split, prefix) in tutorialPrefix where name.hasPrefix(prefix + "-") {
            _ = split
            return isNumbering(name.dropFirst(prefix.count + 1))
        }
        guard let suffix = OutputFormat.shardSuffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        guard let dash = stem.firstIndex(of: "-"), SplitName(rawValue: String(stem[..<dash])) != nil else { return false }
        return isNumbering(stem[stem.index(after: dash)...])
    }

    /// `NNNNN-of-NNNNN`.
    private static func isNumbering(_ text: Substring) -> Bool {
        let numbers = text.split(separator: "-", omittingEmptySubsequences: false)
        return numbers.count == 3 && numbers[1] == "of"
            && [numbers[0], numbers[2]].allSatisfy { $0.count == 5 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    private static func zeroPadded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(5 - digits.count, 0)) + digits
    }
}
