import Foundation
import SketchFormats
import SketchIO

/// Reads one split of a SketchPrep NPY shard directory: `{split}-{i:05d}-of-{n:05d}.x.npy`
/// (float32, or uint8 scaled to [0, 1]), `.y.npy` (int32 labels), `.keys.txt` and the class map of
/// `manifest.json`.
public struct ShardSplitReader: Sendable {
    /// One shard's examples.
    public struct Shard: Sendable {
        /// Per-example features, row-major, `keys.count × exampleShape.product` values.
        public let features: [Float]
        /// Shape of one example (the .x.npy shape without its first dimension).
        public let exampleShape: [Int]
        /// Class index per example (indices into ``ShardSplitReader/classNames``).
        public let labels: [Int]
        /// key_id per example.
        public let keys: [String]
    }

    /// The shard directory.
    public let directory: String
    /// The split name (`train`, `val`, `test`), or ``allSplits`` for every shard of the directory.
    public let split: String
    /// The split name that selects every split (train, val and test shards, in that order).
    public static let allSplits = "all"
    /// Class words by index, from manifest.json.
    public let classNames: [String]
    /// Shard file stems (`val-00000-of-00002`, …) in order.
    public let stems: [String]

    private struct ManifestClasses: Decodable {
        struct Entry: Decodable {
            let index: Int
            let word: String
        }
        let classes: [Entry]
    }

    /// Finds the split's shards and reads the class map; throws when either is missing.
    public init(directory: String, split: String) throws {
        let manifestPath = (directory as NSString).appendingPathComponent(DatasetLayout.manifest)
        guard FileSystem.exists(manifestPath) else {
            throw DatasetError(.dataset, "\(manifestPath): missing (is this a `sketchprep preprocess` output directory?)")
        }
        let data = Data(try InputFile.readAll(manifestPath, maximumBytes: Manifest.maximumFileBytes))
        let entries: [ManifestClasses.Entry]
        do {
            entries = try JSONDecoder().decode(ManifestClasses.self, from: data).classes.sorted { $0.index < $1.index }
        } catch {
            throw DatasetError(.dataset, "\(manifestPath): no readable class map (\(error))")
        }
        guard entries.map(\.index) == Array(0..<entries.count) else {
            throw DatasetError(.dataset, "\(manifestPath): class indices are not 0..<\(entries.count)")
        }
        // A dataset from elsewhere is data too: its class words follow the one name rule.
        if let problem = entries.lazy.compactMap({ DataName.wordProblem($0.word) }).first {
            throw DatasetError(.dataset, "\(manifestPath): class map: \(problem)")
        }
        let names = FileSystem.entryNames(of: directory)
        let splits = split == Self.allSplits ? ["train", "val", "test"] : [split]
        let stems = splits.flatMap { name in
            names.filter { $0.hasPrefix(name + "-") && $0.hasSuffix(DatasetLayout.featuresSuffix) }
                .map { String($0.dropLast(DatasetLayout.featuresSuffix.count)) }.sorted()
        }
        guard !stems.isEmpty else {
            let present = Self.splitsPresent(in: directory)
            throw DatasetError(
                .dataset,
                "\(directory): no '\(split)' shards (\(split)-*-of-*\(DatasetLayout.featuresSuffix))"
                    + (present.isEmpty ? "" : "; its splits are \(present.joined(separator: ", ")): pass --split \(present[0])"))
        }
        self.directory = directory
        self.split = split
        self.classNames = entries.map(\.word)
        self.stems = stems
    }

    /// The splits (`train`, `val`, `test`, in that order) that have NPY shards in `directory`.
    public static func splitsPresent(in directory: String) -> [String] {
        let names = FileSystem.entryNames(of: directory)
        return ["train", "val", "test"].filter { split in
            names.contains { $0.hasPrefix(split + "-") && $0.hasSuffix(DatasetLayout.featuresSuffix) }
        }
    }

    /// The split to evaluate when none is named: `val` when every directory has one, else `test`
    /// when every directory has that, else nil.
    public static func defaultSplit(of directories: [String]) -> String? {
        let present = directories.map { Set(splitsPresent(in: $0)) }
        return ["val", "test"].first { split in present.allSatisfy { $0.contains(split) } }
    }

    /// Loads shard `stem`, checking that features, labels and keys agree in count.
    public func shard(_ stem: String) throws -> Shard {
        let base = (directory as NSString).appendingPathComponent(stem)
        let x = try NPYReader.read(path: base + DatasetLayout.featuresSuffix)
        let y = try Self.labels(base)
        let keysPath = base + DatasetLayout.keysSuffix
        guard let keyText = try? String(contentsOfFile: keysPath, encoding: .utf8) else {
            throw DatasetError(.dataset, "\(keysPath): cannot read")
        }
        let keys = keyText.split(separator: "\n", omittingEmptySubsequences: false).dropLast(keyText.hasSuffix("\n") ? 1 : 0)
            .map(String.init)
        if let problem = keys.lazy.compactMap({ DataName.textProblem($0, field: "key_id") }).first {
            throw DatasetError(.dataset, "\(keysPath): \(problem)")
        }
        let features: [Float]
        switch x.dtype {
        case .float32: features = x.floats()
        case .uint8: features = x.data.map { Float($0) / 255 }
        default: throw DatasetError(.dataset, "\(base)\(DatasetLayout.featuresSuffix): features must be float32 or uint8, not \(x.dtype)")
        }
        let count = x.shape.first ?? 0
        guard y.shape == [count], keys.count == count else {
            throw DatasetError(
                .dataset,
                "\(base)\(DatasetLayout.featuresSuffix): \(count) examples but \(y.shape.first ?? 0) labels"
                    + " and \(keys.count) keys")
        }
        return Shard(features: features, exampleShape: Array(x.shape.dropFirst()), labels: y.int32s().map(Int.init), keys: keys)
    }

    /// The class word of each example of shard `stem` (its labels through the class map; a label
    /// outside the map reads `class N`), without reading its features.
    package func labelWords(_ stem: String) throws -> [String] {
        try Self.labels((directory as NSString).appendingPathComponent(stem)).int32s().map { label in
            classNames.indices.contains(Int(label)) ? classNames[Int(label)] : "class \(label)"
        }
    }

    /// The int32 labels array of the shard at `base`.
    private static func labels(_ base: String) throws -> NPYArray {
        let y = try NPYReader.read(path: base + DatasetLayout.labelsSuffix)
        guard y.dtype == .int32 else {
            throw DatasetError(.dataset, "\(base)\(DatasetLayout.labelsSuffix): labels must be int32, not \(y.dtype)")
        }
        return y
    }
}
