import SketchFormats
/// The on-disk format of a sharded dataset.
public enum ShardFormat: String, Sendable, Codable, CaseIterable {
    /// Per shard `{split}-{i:05d}-of-{n:05d}.x.npy` (features, `(N, shape…)`), `.y.npy`
    /// (int32 labels, `(N,)`) and `.keys.txt` (one key_id per line, same order).
    case npy
    /// Per shard `{split}-{i:05d}-of-{n:05d}.tfrecord` of `tf.train.Example`s.
    case tfrecord
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
        "\(split.rawValue)-\(zeroPadded(index))-of-\(zeroPadded(count))"
    }

    private static func zeroPadded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(5 - digits.count, 0)) + digits
    }
}
