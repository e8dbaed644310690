// swift-tools-version:6.0
import PackageDescription

// The benchmarks of SketchPrep, kept out of the shipped `sketchprep` tool: one runner that times
// sketchprep (in process and as the user runs it) next to the Python reference in the same run,
// and fails when a speed-up falls below Benchmarks/Thresholds/<benchmark>.json. `make bench` runs it.
let package = Package(
    name: "SketchPrepBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "SketchPrep", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "sketchprep-benchmarks",
            dependencies: [
                .product(name: "SketchCore", package: "SketchPrep"),
                .product(name: "SketchFormats", package: "SketchPrep"),
                .product(name: "SketchRaster", package: "SketchPrep"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/SketchPrepBenchmarks"
        )
    ]
)
