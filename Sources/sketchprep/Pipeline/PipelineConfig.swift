import SketchCore
import SketchIO

/// A declarative preprocessing pipeline (one `Pipelines/*.yaml` file): where drawings come from,
/// which ones to keep, how to encode them and how to shard them. See docs/pipelines.md.
struct PipelineConfig {
    /// Pipeline name (defaults to the file name without extension).
    var name: String
    var source: SourceStage
    var simplification: SimplificationOptions
    var filters: FilterStage
    var encode: EncodeStage
    var split: DatasetSplit
    var output: OutputStage
}

/// Kinds of input a pipeline can read.
enum SourceKind: String, CaseIterable {
    /// Quick, Draw! NDJSON (raw or simplified; files, directories, `.gz`).
    case quickdrawNDJSON = "quickdraw-ndjson"
    /// A directory of `<class>/*.png` images, optionally under `train/`, `val/`, `test/` (TU-Berlin).
    case imageDirectory = "image-directory"
}

/// `source:` — what to read.
struct SourceStage {
    var kind: SourceKind
    var format: InputFormat
    /// Files or directories (overridden by `--input`).
    var inputs: [String]
}

/// `filters:` — which valid drawings to keep, applied in this order.
struct FilterStage {
    /// Keep only drawings the game recognized.
    var recognizedOnly: Bool
    /// Keep only these country codes (empty: all).
    var countries: [String]
    /// Keep only these words, which also fixes the class order (empty: every word, sorted).
    var categories: [String]
    /// Keep at most this many drawings per class, the first ones in input order (nil: all).
    var maxPerClass: Int?
}

/// Kinds of encoding stage.
enum EncodeKind: String, CaseIterable {
    /// Stroke tensors (the book's / TF tutorial's recipe).
    case strokes
    /// Gray rasters: drawings rendered with cairo, or PNG images resampled (see `RasterEncodeOptions`).
    case raster
}

/// `encode:` — how a drawing becomes an example.
enum EncodeStage {
    case strokes(StrokeTensorOptions)
    case raster(RasterEncodeOptions)
}

/// `output:` — where and how shards are written.
struct OutputStage {
    var format: ShardFormat
    var directory: String
    var examplesPerShard: Int
    var seed: UInt64
}

extension PipelineConfig {
    /// The resolved configuration as JSON, recorded in the manifest.
    var json: JSONValue {
        let encodeJSON: JSONValue
        switch encode {
        case let .strokes(options):
            encodeJSON = .object([
                "kind": .string(EncodeKind.strokes.rawValue),
                "length": options.length.map { .number(Double($0)) } ?? .null,
                "padding": .string(options.paddingSide.rawValue),
                "truncation": .string(options.truncationSide.rawValue),
            ])
        case let .raster(options):
            encodeJSON = options.json
        }
        return .object([
            "name": .string(name),
            "source": .object([
                "kind": .string(source.kind.rawValue),
                "format": .string(source.format.rawValue),
                "inputs": .array(source.inputs.map(JSONValue.string)),
            ]),
            "simplify": .object([
                "epsilon": .number(simplification.epsilon),
                "resample_step": .number(simplification.resampleStep),
                "scale_target": .number(simplification.scaleTarget),
                "scale_formula": .string(simplification.scaleFormula.rawValue),
                "resampling": .string(simplification.resampling.rawValue),
                "rdp_distance": .string(simplification.rdpDistance.rawValue),
                "rounding": .string(simplification.rounding.rawValue),
            ]),
            "filters": .object([
                "recognized_only": .bool(filters.recognizedOnly),
                "countries": .array(filters.countries.map(JSONValue.string)),
                "categories": .array(filters.categories.map(JSONValue.string)),
                "max_per_class": filters.maxPerClass.map { .number(Double($0)) } ?? .null,
            ]),
            "encode": encodeJSON,
            "split": .object(["train": .number(split.train), "val": .number(split.val), "test": .number(split.test)]),
            "output": .object([
                "format": .string(output.format.rawValue),
                "examples_per_shard": .number(Double(output.examplesPerShard)),
                "seed": .number(Double(output.seed)),
            ]),
        ])
    }
}
