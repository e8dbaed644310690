import SketchCore
import SketchDataset
import SketchFormats

/// A declarative preprocessing pipeline (one `Pipelines/*.yaml` file): where drawings come from,
/// which ones to keep, how to encode them and how to shard them. See docs/pipelines.md.
package struct PipelineConfig {
    /// Pipeline name (defaults to the file name without extension).
    package var name: String
    package var source: SourceStage
    package var simplification: SimplificationOptions
    package var filters: FilterStage
    package var encode: EncodeStage
    package var split: DatasetSplit
    /// `split.counts`: at most this many examples of each class in each split, the first ones in
    /// dataset order (hash rank); a split without a count is not capped.
    package var splitCounts: [SplitName: Int] = [:]
    package var output: OutputStage
    /// SHA-256 of the pipeline file's bytes (recorded in the manifest's `settings`; not part of ``json``).
    package var fileSHA256 = ""
    /// The pipeline file's text (recorded in the manifest's `pipeline.text`; not part of ``json``).
    package var text = ""
}

/// Kinds of input a pipeline can read.
package enum SourceKind: String, CaseIterable {
    /// Quick, Draw! NDJSON (raw or simplified; files, directories, `.gz`).
    case quickdrawNDJSON = "quickdraw-ndjson"
    /// A directory of `<class>/*.png` images, optionally under `train/`, `val/`, `test/` (TU-Berlin).
    case imageDirectory = "image-directory"
}

/// `source:` — what to read.
package struct SourceStage {
    package var kind: SourceKind
    package var format: InputFormat
    /// Files or directories (overridden by `--input`).
    package var inputs: [String]
    /// `file_format`: the drawing file format of every input (nil: each by content, see
    /// `DrawingSource.engineInputs`).
    package var fileFormat: DrawingFileFormat? = nil
    /// `word`: the word of records from inputs that carry none (a `.bin` on standard input; every
    /// `.bin` and stroke-3 input when set).
    package var word: String? = nil
}

/// `filters:` — which valid drawings to keep, applied in this order.
package struct FilterStage {
    /// Keep only drawings the game recognized.
    package var recognizedOnly: Bool
    /// Keep only these country codes (empty: all).
    package var countries: [String]
    /// Keep only these words, which also fixes the class order (empty: every word, sorted).
    package var categories: [String]
    /// Keep at most this many drawings per class, the first ones in input order (nil: all).
    package var maxPerClass: Int?

    /// Whether `code` has the form of the data's `countrycode`: two upper-case ASCII letters.
    package static func isCountryCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}

/// Kinds of encoding stage.
package enum EncodeKind: String, CaseIterable {
    /// Stroke tensors (the book's / TF tutorial's recipe).
    case strokes
    /// Gray rasters: drawings rendered with cairo, or PNG images resampled (see `RasterEncodeOptions`).
    case raster
    /// sketch-rnn stroke-3 rows `[dx, dy, pen_lifted]` (int16), for `output.format: npz`.
    case stroke3
}

/// `encode:` — how a drawing becomes an example.
package enum EncodeStage: Sendable {
    case strokes(StrokeTensorOptions)
    case raster(RasterEncodeOptions)
    /// Stroke-3 rows, each stroke first reduced by Ramer–Douglas–Peucker at `epsilon` when set
    /// (as sketch-rnn's data was made), of `elementType` (`encode.dtype: int16`), or nil to keep
    /// the input's (float64 rows of float64 stroke-3 input stay float64, others are int16).
    case stroke3(epsilon: Double?, elementType: Stroke3ElementType?)

    /// Lines in one batch of the map: 1,024, fewer for rasters (`BatchSizing`: one line at size
    /// 8192, whose payload is 64 MiB, 256 MiB as float32).
    package var linesPerBatch: Int {
        guard case let .raster(options) = self else { return 1024 }
        let channels = max(1, options.timeChannels.count)
        let payload = options.stroke.side * options.stroke.side * channels * (options.dtype == .float32 ? 4 : 1)
        return BatchSizing.records(bytesPerRecord: payload, maximum: 1024)
    }
}

extension EncodeStage {
    /// What the stage makes of each example, which the output format may refuse
    /// (``OutputFormatEntry/refusal(of:)``).
    package var exampleKind: ExampleKind {
        switch self {
        case .strokes: return .strokeTensors
        case .stroke3: return .stroke3Rows
        case let .raster(options): return .rasters(uint8: options.dtype == .uint8)
        }
    }
}

extension PipelineConfig {
    /// Refuses an output format that cannot hold what `encode` makes, with the format's reason, and
    /// stroke-3 rows from an image-directory source.
    package func validateOutputFormat(_ top: YAMLSection) throws {
        if let reason = output.format.entry.refusal(of: encode.exampleKind) {
            throw top.error("output.format", top.value("output"), reason)
        }
        if case .stroke3 = encode, source.kind != .quickdrawNDJSON {
            throw top.error("encode.kind", top.value("encode"), "stroke3 encodes drawings, not an image-directory source")
        }
    }
}

/// `output:` — where and how shards are written.
package struct OutputStage {
    /// `output.format`: an entry of the output format registry (``OutputFormat/allCases``).
    package var format: OutputFormat
    package var directory: String
    package var examplesPerShard: Int
    package var seed: UInt64
    /// `output.layout`: shard file names (docs/pipelines.md).
    package var layout = ShardNaming.standard
    /// `output.layout` of `output.format: npz`: sketch-rnn's pickled arrays or the flat layout.
    package var stroke3Layout = Stroke3Layout.standard
}

extension PipelineConfig {
    /// The resolved configuration as JSON, recorded in the manifest. Only settings that took part
    /// in making the bytes are recorded: an image-directory source has no simplification, input
    /// format, Quick, Draw! filters or pen settings; variable-length stroke tensors are neither
    /// padded nor truncated; one `.npz` per class has no shard size.
    package var json: JSONValue {
        let drawings = source.kind == .quickdrawNDJSON
        let encodeJSON: JSONValue
        switch encode {
        case let .strokes(options):
            encodeJSON = .object(
                [
                    "kind": .string(EncodeKind.strokes.rawValue),
                    "length": options.length.map { .number(Double($0)) } ?? .null,
                ].merging(
                    options.length == nil
                        ? [:]
                        : [
                            "padding": .string(options.paddingSide.rawValue),
                            "truncation": .string(options.truncationSide.rawValue),
                        ]
                ) { a, _ in a })
        case let .raster(options):
            encodeJSON = drawings ? options.drawingJSON : options.imageJSON
        case let .stroke3(epsilon, elementType):
            // `dtype` recorded only when set, so existing manifests keep their bytes.
            encodeJSON = .object(
                ["kind": .string(EncodeKind.stroke3.rawValue), "epsilon": epsilon.map(JSONValue.number) ?? .null]
                    .merging(elementType.map { ["dtype": .string($0.rawValue)] } ?? [:]) { a, _ in a })
        }
        var sourceJSON: [String: JSONValue] = [
            "kind": .string(source.kind.rawValue),
            "inputs": .array(source.inputs.map(JSONValue.string)),
        ]
        if drawings { sourceJSON["format"] = .string(source.format.rawValue) }
        // Recorded only when set, so manifests of NDJSON pipelines keep their bytes.
        if let fileFormat = source.fileFormat { sourceJSON["file_format"] = .string(fileFormat.rawValue) }
        if let word = source.word { sourceJSON["word"] = .string(word) }
        var filtersJSON: [String: JSONValue] = [
            "categories": .array(filters.categories.map(JSONValue.string)),
            "max_per_class": filters.maxPerClass.map { .number(Double($0)) } ?? .null,
        ]
        if drawings {
            filtersJSON["recognized_only"] = .bool(filters.recognizedOnly)
            filtersJSON["countries"] = .array(filters.countries.map(JSONValue.string))
        }
        var outputJSON: [String: JSONValue] = [
            "format": .string(output.format.rawValue),
            "seed": .number(Double(output.seed)),
        ]
        if output.format.entry.grouping == .shards { outputJSON["examples_per_shard"] = .number(Double(output.examplesPerShard)) }
        if output.layout != .standard { outputJSON["layout"] = .string(output.layout.rawValue) }
        if output.stroke3Layout != .standard { outputJSON["layout"] = .string(output.stroke3Layout.rawValue) }
        var json: [String: JSONValue] = [
            "name": .string(name),
            "source": .object(sourceJSON),
            "filters": .object(filtersJSON),
            "encode": encodeJSON,
            "split": .object(
                ["train": .number(split.train), "val": .number(split.val), "test": .number(split.test)]
                    .merging(
                        splitCounts.isEmpty
                            ? [:]
                            : [
                                "counts": .object(
                                    Dictionary(
                                        uniqueKeysWithValues: splitCounts.map {
                                            ($0.key.rawValue, JSONValue.number(Double($0.value)))
                                        }))
                            ]
                    ) { a, _ in a }),
            "output": .object(outputJSON),
        ]
        if drawings {
            json["simplify"] = .object(
                SimplificationOptions.fixedFormulas.mapValues(JSONValue.string).merging([
                    "epsilon": .number(simplification.epsilon),
                    "resample_step": .number(simplification.resampleStep),
                    "scale_target": .number(simplification.scaleTarget),
                ]) { _, knob in knob })
        }
        return .object(json)
    }
}
