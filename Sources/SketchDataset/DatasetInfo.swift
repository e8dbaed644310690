import SketchFormats
import SketchIO

/// What a dataset directory holds, from its `manifest.json` (`sketchprep info DIR`): the kind of
/// dataset (NPY, TFRecord, WebDataset or stroke-3 `.npz`, told by its files' names), classes,
/// per-split and per-class counts, the pipeline and its settings, the inputs with their sizes
/// and SHA-256s, the files' sizes and the sketchprep version that wrote it. The same document is
/// `--report-json` and, parsed, the Python package's `sketchprep.info(directory)`.
///
/// The manifest is untrusted: it is read through ``Manifest/read(_:in:)`` (size cap, a regular
/// file inside the directory), and ``lines()`` escapes every string from it for the terminal.
package struct DatasetInfo: Sendable, Encodable {
    /// One split's examples: all, and per class word.
    package struct SplitInfo: Sendable, Encodable {
        /// `train`, `val` or `test`.
        package var split: String
        /// Examples of the split.
        package var examples: Int
        /// Examples per class word, in class order (words the split lacks have 0).
        package var perClass: [ClassCount]
        /// Bytes of the files holding only this split (0 for datasets whose files hold every split).
        package var bytes: Int
        /// Files holding only this split.
        package var files: Int

        enum CodingKeys: String, CodingKey {
            case split, examples, bytes, files
            case perClass = "per_class"
        }
    }

    /// A class word and a count.
    package struct ClassCount: Sendable, Encodable {
        /// Class word.
        package var word: String
        /// Examples.
        package var examples: Int
    }

    /// The dataset directory as given.
    package var directory: String
    /// `npy`, `tfrecord`, `webdataset`, `npz` (sketch-rnn stroke-3) or `unknown`, from the files' names.
    package var kind: String
    /// `manifest.json`'s `format_version`.
    package var formatVersion: Int
    /// The sketchprep version that wrote the dataset (nil for manifests without library versions).
    package var sketchprepVersion: String?
    /// Versions of sketchprep and of the C libraries in the bytes.
    package var libraries: [String: String]
    /// Pipeline name (`import-bitmaps` for imported bitmaps).
    package var pipeline: String
    /// The pipeline file as given when the dataset was built.
    package var pipelineFile: String
    /// The resolved configuration (every default filled in, overrides applied).
    package var config: JSONValue
    /// `--limit` of the run (nil: every record was read).
    package var recordLimit: Int?
    /// SHA-256 of the pipeline file's bytes (nil for manifests without settings).
    package var pipelineSHA256: String?
    /// Class words in label order.
    package var classes: [String]
    /// Each split in `train`, `val`, `test` order.
    package var splits: [SplitInfo]
    /// Examples per class word over every split, in class order.
    package var perClass: [ClassCount]
    /// `read = written + filtered + rejected`, with source errors.
    package var records: RecordCounts
    /// The inputs (files or chunks of files) with their sizes and SHA-256s.
    package var sources: [Manifest.SourceFileEntry]
    /// Files of the dataset the manifest lists.
    package var files: Int
    /// Their bytes.
    package var bytes: Int
    /// The quarantine file the manifest names, if any.
    package var quarantine: String?

    enum CodingKeys: String, CodingKey {
        case directory, kind, libraries, pipeline, config, classes, splits, records, sources, files, bytes, quarantine
        case formatVersion = "format_version"
        case sketchprepVersion = "sketchprep_version"
        case pipelineFile = "pipeline_file"
        case recordLimit = "record_limit"
        case pipelineSHA256 = "pipeline_sha256"
        case perClass = "per_class"
    }

    /// Encodes every key, absent values as `null`, so the document always has the same keys.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory, forKey: .directory)
        try container.encode(kind, forKey: .kind)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(sketchprepVersion, forKey: .sketchprepVersion)
        try container.encode(libraries, forKey: .libraries)
        try container.encode(pipeline, forKey: .pipeline)
        try container.encode(pipelineFile, forKey: .pipelineFile)
        try container.encode(config, forKey: .config)
        try container.encode(recordLimit, forKey: .recordLimit)
        try container.encode(pipelineSHA256, forKey: .pipelineSHA256)
        try container.encode(classes, forKey: .classes)
        try container.encode(splits, forKey: .splits)
        try container.encode(perClass, forKey: .perClass)
        try container.encode(records, forKey: .records)
        try container.encode(sources, forKey: .sources)
        try container.encode(files, forKey: .files)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(quarantine, forKey: .quarantine)
    }

    /// The description of the dataset in `directory`; throws `DatasetError` when its manifest
    /// cannot be read or has values out of range.
    package static func read(directory: String) throws -> DatasetInfo {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        let manifest = try Manifest.read(DatasetLayout.manifest, in: base)
        if let invalid = manifest.invalidFields.first {
            throw DatasetError("\(base)/\(DatasetLayout.manifest): \(invalid.field): \(invalid.detail) (run `sketchprep verify \(base)`)")
        }
        return DatasetInfo(directory: directory, manifest: manifest)
    }

    /// The description of `manifest`, the manifest of `directory`.
    package init(directory: String, manifest: Manifest) {
        self.directory = directory
        let classes = manifest.classes.sorted { $0.index < $1.index }.map(\.word)
        self.classes = classes
        kind = Self.kind(of: manifest.shards.map(\.file))
        formatVersion = manifest.formatVersion
        libraries = manifest.libraries ?? [:]
        sketchprepVersion = manifest.libraries?["sketchprep"]
        pipeline = manifest.pipeline.name
        pipelineFile = manifest.pipeline.file
        config = manifest.pipeline.config
        recordLimit = manifest.settings?.recordLimit
        pipelineSHA256 = manifest.settings?.pipelineSHA256
        splits = SplitName.allCases.map { split in
            let counts = manifest.counts[split.rawValue]
            let shards = manifest.shards.filter { $0.split == split }
            return SplitInfo(
                split: split.rawValue, examples: counts?.total ?? 0,
                perClass: classes.map { ClassCount(word: $0, examples: counts?.perClass[$0] ?? 0) },
                bytes: shards.reduce(0) { $0 + $1.bytes }, files: shards.count)
        }
        perClass = classes.map { word in
            ClassCount(word: word, examples: manifest.counts.values.reduce(0) { $0 + ($1.perClass[word] ?? 0) })
        }
        records = manifest.records
        sources = manifest.sources
        files = manifest.shards.count
        bytes = manifest.shards.reduce(0) { $0 + $1.bytes }
        quarantine = manifest.quarantine
    }

    /// The dataset kind its files' names tell.
    static func kind(of files: [String]) -> String {
        if files.contains(where: { $0.hasSuffix(DatasetLayout.featuresSuffix) }) { return "npy" }
        if files.contains(where: { $0.hasSuffix(DatasetLayout.tarSuffix) }) { return "webdataset" }
        if files.contains(where: { $0.hasSuffix(DatasetLayout.tfrecordSuffix) || $0.contains(".tfrecord-") }) { return "tfrecord" }
        if files.contains(where: { $0.hasSuffix(DatasetLayout.stroke3Suffix) }) { return "npz" }
        return "unknown"
    }

    /// The description as text lines for a terminal, every string from the manifest escaped.
    package func lines() -> [String] {
        func safe(_ text: String) -> String { TerminalText.escaped(text) }
        var lines = [
            "\(safe(directory)): \(kindDescription) dataset, \(records.written) examples of \(classes.count) classes",
            "  written by sketchprep \(safe(sketchprepVersion ?? "(unknown version)")), manifest format \(formatVersion)",
            "  pipeline: \(safe(pipeline))" + (pipelineFile.isEmpty ? "" : " (\(safe(pipelineFile)))")
                + (pipelineSHA256.map { ", file sha256 \(safe($0))" } ?? ""),
        ]
        if let recordLimit { lines.append("  a trial: built with --limit \(recordLimit) (only the first records of each input)") }
        lines.append("  settings:")
        lines += Self.flatten(config).map { "    \(safe($0.key)): \(safe($0.value))" }
        lines.append(
            "  records: read \(records.read) = written \(records.written) + filtered \(records.filtered) + rejected \(records.rejected)"
                + (records.sourceErrors > 0 ? "; source errors \(records.sourceErrors)" : "")
                + (quarantine.map { " (quarantine: \(safe($0)))" } ?? ""))
        lines.append("  files: \(files), \(Self.size(bytes))")
        let header = ["class"] + splits.map(\.split) + ["all"]
        var rows = [header]
        for (index, word) in classes.enumerated() {
            rows.append([safe(word)] + splits.map { String($0.perClass[index].examples) } + [String(perClass[index].examples)])
        }
        rows.append(["all"] + splits.map { String($0.examples) } + [String(records.written)])
        if splits.contains(where: { $0.files > 0 }) {
            rows.append(["files"] + splits.map { "\($0.files) (\(Self.size($0.bytes)))" } + ["\(files) (\(Self.size(bytes)))"])
        }
        lines.append("  examples per split and class:")
        lines += Self.table(rows).map { "    " + $0 }
        lines.append("  inputs: \(sources.count) \(sources.count == 1 ? "entry" : "entries")")
        for source in sources {
            let range = source.offset.map { " bytes \($0)…\($0 + source.bytes)" } ?? ""
            lines.append("    \(safe(source.path))\(range): \(source.bytes) bytes, sha256 \(safe(source.sha256))")
        }
        return lines
    }

    /// The kind in words.
    private var kindDescription: String {
        switch kind {
        case "npy": "NPY"
        case "tfrecord": "TFRecord"
        case "webdataset": "WebDataset"
        case "npz": "sketch-rnn stroke-3 .npz"
        default: "unknown kind of"
        }
    }

    /// `(dotted key, value)` of every leaf of `value`, keys sorted (arrays of scalars as `[a, b]`).
    static func flatten(_ value: JSONValue, prefix: String = "") -> [(key: String, value: String)] {
        switch value {
        case let .object(members):
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                flatten(member, prefix: prefix.isEmpty ? key : "\(prefix).\(key)")
            }
        default:
            return [(prefix, scalarText(value))]
        }
    }

    /// A JSON value as short text: strings as they are, whole numbers without `.0`.
    private static func scalarText(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case let .bool(flag): String(flag)
        case let .number(number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case let .string(text): text
        case let .array(items): "[" + items.map(scalarText).joined(separator: ", ") + "]"
        case .object: "{…}"
        }
    }

    /// `bytes` in B, KiB, MiB or GiB.
    static func size(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return unit == 0 ? "\(bytes) B" : "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// Rows as left-aligned columns (the first) and right-aligned ones (the rest).
    private static func table(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}
