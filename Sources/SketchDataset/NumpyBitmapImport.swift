import Foundation
import SketchCore
import SketchFormats
import SketchIO

/// Turns Google's official `numpy_bitmap` files (`<word>.npy`, uint8, N × 784 or N × 1 × 784, white
/// ink on black) into a SketchPrep NPY shard directory of 28×28 uint8 examples with manifest.json,
/// so that models are trained and evaluated on shards only.
///
/// Row `i` of `<word>.npy` is line `i + 1` of Google's simplified `<word>.ndjson`; when
/// ``simplifiedSource`` is given (that file, or a directory holding it), rows are keyed by that
/// line's key_id (so they join with SketchPrep's own renders of the same drawings), otherwise —
/// and for rows past the end of the ndjson file or classes the directory has no file for — by
/// `<word>/<row>`.
public struct NumpyBitmapImport: Sendable {
    /// The `<word>.npy` files, one class each (class order: sorted words).
    public var bitmapFiles: [String]
    /// Google's simplified `<word>.ndjson` file, or a directory of them, for key_ids. A file must
    /// be named for one of the bitmap files' words.
    public var simplifiedSource: String?
    /// Rows to import from each file (clamped to the file's row count).
    public var rows: Range<Int>
    /// Shard format, size, seed and split.
    public var sharding: ShardingOptions
    /// Output directory (created if missing).
    public var outputDirectory: String

    /// Creates an import; see the properties.
    public init(
        bitmapFiles: [String], simplifiedSource: String?, rows: Range<Int>, sharding: ShardingOptions,
        outputDirectory: String
    ) {
        self.bitmapFiles = bitmapFiles
        self.simplifiedSource = simplifiedSource
        self.rows = rows
        self.sharding = sharding
        self.outputDirectory = outputDirectory
    }

    /// Reads every file, writes the shards, classes.txt and manifest.json into the output's staging
    /// area, swaps it in (``DatasetTransaction``), and returns the manifest.
    public func run() throws -> Manifest {
        let words = bitmapFiles.map(Self.word(of:))
        guard Set(words).count == words.count else { throw DatasetError(.input, "\(outputDirectory): two bitmap files share a class word") }
        let transaction = try DatasetTransaction.begin(outputDirectory)
        defer { transaction.abort() }
        var staged = self
        staged.outputDirectory = transaction.staging
        let manifest = try staged.write()
        try transaction.commit()
        return manifest
    }

    /// The import into ``outputDirectory`` itself.
    private func write() throws -> Manifest {
        let files = bitmapFiles.sorted { Self.word(of: $0) < Self.word(of: $1) }
        let words = files.map(Self.word(of:))
        let simplifiedFiles = try simplifiedSource.map { try Self.simplifiedFiles(for: words, in: $0) } ?? [:]
        let writer = ShardedDatasetWriter(directory: outputDirectory, options: sharding)
        var sources: [Manifest.SourceFileEntry] = []
        var read = 0
        // The eval-sized import holds its examples and sorts them into the dataset order itself.
        var examples: [(sortKey: UInt64, keyID: String, label: Int32, row: Int, pixels: [UInt8])] = []
        for (label, file) in files.enumerated() {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.readAll(file)
            } catch {
                throw DatasetError(.input, "\(file): \(error.description)")
            }
            sources.append(Manifest.SourceFileEntry(path: file, bytes: bytes.count, sha256: SHA256Hasher.hash(bytes).hexString))
            let array = try NPYReader.parse(bytes, path: file)
            guard array.dtype == .uint8, let count = array.shape.first, NPYFormat.checkedProduct(array.shape.dropFirst()) == 784 else {
                throw DatasetError(.input, "\(file): expected uint8 rows of 784 pixels, got \(array.dtype) \(array.shape)")
            }
            let keys = try simplifiedFiles[words[label]].map(Self.keyIDs(in:)) ?? [:]
            for row in rows.clamped(to: 0..<count) {
                read += 1
                let pixels = Array(array.data[(row * 784)..<((row + 1) * 784)])
                let keyID = keys[row] ?? "\(words[label])/\(row)"
                examples.append((SortKey.of(keyID: keyID, seed: sharding.seed), keyID, Int32(label), row, pixels))
            }
        }
        // The dataset order (`SortedExample.precedes`): sort key, key_id bytes, then file and row.
        examples.sort { a, b in
            if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
            if a.keyID != b.keyID { return a.keyID.utf8.lexicographicallyPrecedes(b.keyID.utf8) }
            return (a.label, a.row) < (b.label, b.row)
        }
        for example in examples {
            try writer.add(DatasetExample(keyID: example.keyID, label: example.label, payload: .uint8(example.pixels, shape: [28, 28])))
        }
        let written = try writer.finish()
        var counts: [String: Manifest.SplitCounts] = [:]
        for (split, perLabel) in written.counts {
            counts[split.rawValue] = Manifest.SplitCounts(
                total: perLabel.values.reduce(0, +),
                perClass: Dictionary(uniqueKeysWithValues: perLabel.map { (words[Int($0.key)], $0.value) }))
        }
        let config: JSONValue = .object([
            "source": .object(["kind": .string("numpy-bitmap"), "simplified_for_keys": simplifiedSource.map(JSONValue.string) ?? .null]),
            "rows": .object(["first": .number(Double(rows.lowerBound)), "end": .number(Double(rows.upperBound))]),
            "split": .object([
                "train": .number(sharding.split.train), "val": .number(sharding.split.val), "test": .number(sharding.split.test),
            ]),
            "output": .object(["examples_per_shard": .number(Double(sharding.examplesPerShard)), "seed": .number(Double(sharding.seed))]),
        ])
        let manifest = Manifest(
            pipeline: Manifest.PipelineInfo(name: "import-bitmaps", file: "", config: config), sources: sources,
            classes: words.enumerated().map { Manifest.ClassEntry(index: $0, word: $1) }, counts: counts,
            shards: written.files, records: RecordCounts(read: read, written: read, filtered: 0, rejected: 0),
            quarantine: nil, libraries: ["sketchprep": SketchPrepVersion.current])
        try writeAtomically(
            words.map { $0 + "\n" }.joined(), to: (outputDirectory as NSString).appendingPathComponent(DatasetLayout.classes))
        try writeAtomically(try manifest.encoded(), to: (outputDirectory as NSString).appendingPathComponent(DatasetLayout.manifest))
        return manifest
    }

    /// The class word of a `<word>.npy` path.
    static func word(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// The bitmap files of the input `input`: itself when it is a file, its `*.npy` files (sorted)
    /// when a directory, with the entries skipped as special files; throws ``DatasetError`` for a
    /// missing input, an unreadable entry or a directory without `*.npy` files.
    package static func bitmapFiles(_ input: String) throws -> (files: [String], skipped: [String]) {
        guard let status = try? FileSystem.status(input) else { throw DatasetError(.input, "input not found: \(input)") }
        guard status.isDirectory else { return ([input], []) }
        let listing = try DirectoryWalk.list(input, recursive: false) { $0.hasSuffix(".npy") }
        if let unusable = listing.rejected.first { throw DatasetError(.input, "cannot read \(unusable.location.file): \(unusable.reason)") }
        guard !listing.files.isEmpty else { throw DatasetError(.input, "no *.npy files in \(input)") }
        return (listing.files, listing.skipped)
    }

    /// The simplified file of each word: `source` itself when it is a file (named `<word>.ndjson`
    /// for one of `words`, else ``DatasetError``), or `source/<word>.ndjson` where present.
    static func simplifiedFiles(for words: [String], in source: String) throws -> [String: String] {
        guard let status = try? FileSystem.status(source) else {
            throw DatasetError(.input, "\(source): not found (--simplified needs Google's simplified <word>.ndjson or a directory of them)")
        }
        guard !status.isDirectory else {
            return Dictionary(
                uniqueKeysWithValues: words.compactMap { word in
                    let path = (source as NSString).appendingPathComponent(word + ".ndjson")
                    return FileSystem.exists(path) ? (word, path) : nil
                })
        }
        let word = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        guard words.contains(word) else {
            throw DatasetError(
                .input,
                "\(source): a simplified file keys the bitmaps of its word ('\(word)'), "
                    + "but the bitmap files are \(words.map { "\($0).npy" }.joined(separator: ", "))")
        }
        return [word: source]
    }

    /// key_id by 0-based row (= line number − 1) of the simplified file at `path`.
    static func keyIDs(in path: String) throws -> [Int: String] {
        var keys: [Int: String] = [:]
        try QuickDrawReader(inputs: [path]).read(
            onRecord: { record, location in keys[location.line - 1] = record.keyID },
            onRejected: { _ in })
        return keys
    }
}
