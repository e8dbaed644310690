import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import Yams

extension PipelineConfig {
    /// Largest pipeline file (and `partial.json` copy of one) read: 1 MiB.
    package static let maximumTextBytes = 1 << 20

    /// Reads and validates a pipeline file. Every error names the file, line and key.
    package static func load(path: String) throws -> PipelineConfig {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path, maximumBytes: maximumTextBytes)
        } catch {
            throw PipelineError(file: path, node: nil, key: "", "cannot read pipeline file: \(error.description)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PipelineError(file: path, node: nil, key: "", "the pipeline file is not UTF-8 text")
        }
        return try parse(text: text, file: path)
    }

    /// Validates pipeline YAML `text`; errors name `file`, the line and the key.
    package static func parse(text: String, file path: String) throws -> PipelineConfig {
        guard text.utf8.count <= maximumTextBytes else {
            throw PipelineError(
                file: path, node: nil, key: "",
                "the pipeline text is longer than \(maximumTextBytes) bytes (PipelineConfig.maximumTextBytes, docs/limits.md)")
        }
        try YAMLAliasCheck.check(text, file: path)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw PipelineError(file: path, node: nil, key: "", "the file is empty")
            }
            root = node
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError(file: path, node: nil, key: "", "not valid YAML: \(error)")
        }
        var config = try parse(root, file: path)
        config.fileSHA256 = SHA256Hasher.hash(Array(text.utf8)).hexString
        config.text = text
        return config
    }

    /// Builds a configuration from a parsed YAML document.
    package static func parse(_ root: Node, file: String) throws -> PipelineConfig {
        let top = try YAMLSection(
            root, file: file, path: "",
            allowed: ["name", "source", "simplify", "filters", "encode", "split", "output"])
        let defaultName = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let name = try top.string("name") ?? defaultName
        var config = PipelineConfig(
            name: name,
            source: try parseSource(top),
            simplification: try parseSimplify(top),
            filters: try parseFilters(top),
            encode: try parseEncode(top),
            split: try parseSplit(top),
            splitCounts: try parseSplitCounts(top),
            output: try parseOutput(top, name: name))
        try config.validateOutputFormat(top)
        if case .stroke3 = config.encode, top.value("split") == nil {
            let quota = try Stroke3SplitQuota()
            (config.split, config.splitCounts) = (quota.split, quota.splitCounts)
        }
        if config.output.layout == .tensorflowTutorial && config.output.format != .tfrecord {
            throw top.error(
                "output.layout", top.value("output"), "the tensorflow-tutorial layout names TFRecord files; set output.format: tfrecord")
        }
        try config.validateRasterCombination(top)
        if case let .strokes(options) = config.encode, options.length == nil, config.output.format == .npy {
            throw top.error(
                "encode.length", top.value("encode"),
                "variable-length tensors (null) cannot go into NPY shards; set a length or use output.format: tfrecord")
        }
        return config
    }

    private static func parseSource(_ top: YAMLSection) throws -> SourceStage {
        guard let section = try top.section("source", allowed: ["kind", "format", "inputs", "file_format", "word", "category"]) else {
            throw top.error("source", nil, "missing (it needs at least `kind`)")
        }
        guard let kind = try section.choice("kind", of: SourceKind.self) else {
            throw section.error("kind", nil, "missing (one of: \(SourceKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let fileFormat = try section.choice("file_format", of: DrawingFileFormat.self)
        if section.value("category") != nil {
            // One meaning per word: `category` filters (filters.categories, --category).
            throw section.error(
                "category", section.value("category"),
                "renamed to source.word (the word of records whose input carries none); categories are chosen with filters.categories")
        }
        let word = try section.string("word")
        if kind == .imageDirectory && (fileFormat != nil || word != nil) {
            throw section.error(fileFormat != nil ? "file_format" : "word", nil, "applies to drawing sources, not to kind: image-directory")
        }
        return SourceStage(
            kind: kind, format: try section.choice("format", of: InputFormat.self) ?? .auto,
            inputs: try section.stringList("inputs") ?? [], fileFormat: fileFormat, word: word)
    }

    private static func parseSimplify(_ top: YAMLSection) throws -> SimplificationOptions {
        guard let section = try top.section("simplify", allowed: ["epsilon", "resample_step", "scale_target"]) else {
            return .google
        }
        var options = SimplificationOptions.google
        options.epsilon = try section.double("epsilon") ?? options.epsilon
        options.resampleStep = try section.double("resample_step") ?? options.resampleStep
        options.scaleTarget = try section.double("scale_target") ?? options.scaleTarget
        if let problem = options.validationProblem {
            let key = problem.key.contains("/") ? "scale_target" : problem.key
            throw section.error(key, section.value(key), "\(problem.key) \(problem.requirement)")
        }
        return options
    }

    private static func parseFilters(_ top: YAMLSection) throws -> FilterStage {
        let section = try top.section("filters", allowed: ["recognized_only", "countries", "categories", "max_per_class"])
        if let section, let repeated = try section.stringList("categories")?.firstRepeated {
            throw section.error("categories", section.value("categories"), "'\(repeated)' is listed twice (each category is one class)")
        }
        if let section, let countries = try section.stringList("countries"),
            let bad = countries.first(where: { !FilterStage.isCountryCode($0) })
        {
            throw section.error(
                "countries", section.value("countries"),
                "'\(bad)' is not a two-letter country code (ISO 3166-1 alpha-2 as in the data's countrycode, e.g. US, DE, BR)")
        }
        return FilterStage(
            recognizedOnly: try section?.bool("recognized_only") ?? false,
            countries: try section?.stringList("countries") ?? [],
            categories: try section?.stringList("categories") ?? [],
            maxPerClass: try section?.int("max_per_class", in: 1...Int(Int32.max)))
    }

    private static func parseEncode(_ top: YAMLSection) throws -> EncodeStage {
        guard let node = top.value("encode") else { throw top.error("encode", nil, "missing (it needs at least `kind`)") }
        // Read `kind` first, then check the keys that kind allows.
        let kindOnly = try YAMLSection(node, file: top.file, path: "encode", allowed: nil)
        guard let kind = try kindOnly.choice("kind", of: EncodeKind.self) else {
            throw kindOnly.error("kind", nil, "missing (one of: \(EncodeKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        switch kind {
        case .raster:
            return .raster(try RasterEncodeOptions(kindOnly))
        case .stroke3:
            let section = try YAMLSection(node, file: top.file, path: "encode", allowed: ["kind", "epsilon", "dtype"])
            let dtype = try section.choice("dtype", of: Stroke3DTypeChoice.self) ?? .keep
            return .stroke3(epsilon: try section.double("epsilon", in: 0...1000), elementType: dtype.forcedElementType)
        case .strokes:
            let section = try YAMLSection(node, file: top.file, path: "encode", allowed: ["kind", "length", "padding", "truncation"])
            // Absent: the book's 75 rows; `null`: variable length.
            let length = section.has("length") ? try section.int("length", in: 1...100_000) : StrokeTensorOptions.book.length
            return .strokes(
                StrokeTensorOptions(
                    length: length,
                    paddingSide: try section.choice("padding", of: SequenceSide.self) ?? .front,
                    truncationSide: try section.choice("truncation", of: SequenceSide.self) ?? .back))
        }
    }

    private static func parseSplit(_ top: YAMLSection) throws -> DatasetSplit {
        guard let section = try top.section("split", allowed: ["train", "val", "test", "counts"]) else { return .standard }
        let train = try section.double("train", in: 0...100) ?? 80
        let val = try section.double("val", in: 0...100) ?? 10
        let test = try section.double("test", in: 0...100) ?? 10
        do {
            return try DatasetSplit(train: train, val: val, test: test)
        } catch {
            throw section.error("", nil, "\(error)")
        }
    }

    /// `split.counts: {train: N, val: N, test: N}` (each optional).
    private static func parseSplitCounts(_ top: YAMLSection) throws -> [SplitName: Int] {
        guard let split = try top.section("split", allowed: ["train", "val", "test", "counts"]),
            let section = try split.section("counts", allowed: ["train", "val", "test"])
        else { return [:] }
        var counts: [SplitName: Int] = [:]
        for name in SplitName.allCases {
            if let count = try section.int(name.rawValue, in: 0...1_000_000_000) { counts[name] = count }
        }
        return counts
    }

    private static func parseOutput(_ top: YAMLSection, name: String) throws -> OutputStage {
        let section = try top.section("output", allowed: ["format", "directory", "examples_per_shard", "seed", "layout"])
        let format = try section?.choice("format", of: OutputFormat.self) ?? .npy
        var output = OutputStage(
            format: format,
            directory: try section?.string("directory") ?? "out/\(name)",
            examplesPerShard: try section?.int("examples_per_shard", in: 1...100_000_000) ?? 10_000,
            seed: UInt64(try section?.int("seed", in: 0...Int.max) ?? 42))
        // Per-class files (sketch-rnn .npz) are laid out by stroke-3 layouts; shards by shard namings.
        if format.entry.grouping == .classes {
            output.stroke3Layout = try section?.choice("layout", of: Stroke3Layout.self) ?? .standard
        } else {
            output.layout = try section?.choice("layout", of: ShardNaming.self) ?? .standard
        }
        return output
    }
}
