// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses for SketchPrep's parsers, one executable per harness. A package of its own
// because `-sanitize=fuzzer` links libFuzzer's `main`, which cannot sit beside the CLI's `@main`.
// Build and run with `make fuzz` (see docs/fuzzing.md).
// `-parse-as-library`: without it the harness file is top-level code, the compiler emits an empty
// `main`, and that `main` (not libFuzzer's) runs: the binary exits 0 without fuzzing anything.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "SketchPrepFuzz",
    dependencies: [
        .package(name: "SketchPrep", path: ".."),
    ],
    targets: [
        // One NDJSON line → parse → simplify → encode 75×3 → 28×28 bitmap.
        .executableTarget(name: "FuzzNDJSONLine", dependencies: [
            .product(name: "SketchCore", package: "SketchPrep"),
            .product(name: "SketchFormats", package: "SketchPrep"),
            .product(name: "SketchRaster", package: "SketchPrep"),
        ], swiftSettings: harness),
        // A whole input file (plain or gzip, possibly damaged) through QuickDrawReader.
        .executableTarget(name: "FuzzGzipReader", dependencies: [
            .product(name: "SketchCore", package: "SketchPrep"),
            .product(name: "SketchFormats", package: "SketchPrep"),
        ], swiftSettings: harness),
        // PNG bytes → 8-bit gray (TU-Berlin import).
        .executableTarget(name: "FuzzPNGImport", dependencies: [
            .product(name: "SketchFormats", package: "SketchPrep"),
        ], swiftSettings: harness),
        // Pipeline YAML text → validated configuration.
        .executableTarget(name: "FuzzPipelineYAML", dependencies: [
            .product(name: "SketchPipeline", package: "SketchPrep"),
        ], swiftSettings: harness),
    ]
)
