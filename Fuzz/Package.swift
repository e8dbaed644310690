// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses for SketchPrep's parsers, one executable per harness. A package of its own
// because `-sanitize=fuzzer` links libFuzzer's `main`, which cannot sit beside the CLI's `@main`.
// Build and run with `make fuzz` (see docs/fuzzing.md).
let package = Package(
    name: "SketchPrepFuzz",
    dependencies: [
        .package(name: "SketchPrep", path: "..")
    ],
    targets: [
        // SwiftPM gives every executable a Swift `main`, which would shadow libFuzzer's: each
        // harness's main.swift hands its entry point to libFuzzer's driver instead.
        .target(name: "LibFuzzerDriver"),
        // One NDJSON line → parse → simplify → encode 75×3 → 28×28 bitmap.
        .executableTarget(
            name: "FuzzNDJSONLine",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
                .product(name: "SketchRaster", package: "SketchPrep"),
            ]),
        // A whole input file (plain or gzip, possibly damaged) through QuickDrawReader.
        .executableTarget(
            name: "FuzzGzipReader",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // A whole Google `.bin` file (plain or gzip, possibly truncated) through GoogleBinaryReader.
        .executableTarget(
            name: "FuzzBinReader",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // PNG bytes → 8-bit gray (TU-Berlin import).
        .executableTarget(
            name: "FuzzPNGImport",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // A stroke-3 .npz (zip + pickled object arrays) or a pickle alone, in memory.
        .executableTarget(
            name: "FuzzNPZReader",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // A raw deflate stream (after a two-byte output capacity): the tool's inflate against zlib's.
        .executableTarget(
            name: "FuzzRawInflate",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // .npy bytes → NPYReader.parse.
        .executableTarget(
            name: "FuzzNPYReader",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchFormats", package: "SketchPrep"),
            ]),
        // manifest.json, partial.json or a run file, read back as verify and merge read them.
        .executableTarget(
            name: "FuzzDatasetFiles",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchDataset", package: "SketchPrep"),
                .product(name: "SketchPipeline", package: "SketchPrep"),
            ]),
        // An SVG file, path data or a transform list → the SVG reader → simplify → 28×28 bitmap.
        .executableTarget(
            name: "FuzzSVGSketch",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
                .product(name: "SketchRaster", package: "SketchPrep"),
            ]),
        // A Kaggle competition CSV → records → simplify → encode → 28×28 bitmap.
        .executableTarget(
            name: "FuzzKaggleCSV",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
                .product(name: "SketchRaster", package: "SketchPrep"),
            ]),
        // A run file's blocks rearranged: only the file's own order may be accepted.
        .executableTarget(
            name: "FuzzRunFileOrder",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchDataset", package: "SketchPrep"),
            ]),
        // libxml2's HTML parser (Debian libxml2-dev), through a small C shim: the HTML harness's oracle.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Texts from data → the evaluation report's HTML → libxml2 finds no script and no event handler.
        .executableTarget(
            name: "FuzzHTMLReport",
            dependencies: [
                "LibFuzzerDriver", "CLibXML2",
                .product(name: "SketchEval", package: "SketchPrep"),
            ]),
        // Pipeline YAML text → validated configuration.
        .executableTarget(
            name: "FuzzPipelineYAML",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "SketchPipeline", package: "SketchPrep"),
            ]),
    ]
)
