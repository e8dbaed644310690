// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SketchPrep",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "SketchCore", targets: ["SketchCore"]),
        .library(name: "SketchIO", targets: ["SketchIO"]),
        .library(name: "SketchRaster", targets: ["SketchRaster"]),
        .library(name: "SketchEval", targets: ["SketchEval"]),
        .executable(name: "sketchprep", targets: ["sketchprep"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // Pure Swift: drawing model, simplification, stroke encoding. No C dependency (iOS-safe).
        .target(name: "SketchCore"),
        // zlib, for streaming .gz input.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's <malloc.h> (mallopt), for the CLI's allocator tuning on Linux.
        .systemLibrary(name: "CMalloc"),
        // Readers and writers: NDJSON, .bin, NPY, TFRecord, manifests.
        .target(name: "SketchIO", dependencies: ["SketchCore", "CZlib", "CPNG"]),
        // libpng (PNG decode/encode in SketchIO) and cairo (vector rendering in SketchRaster).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Rasterisation: cairo stroke rendering (Google 28x28 bitmaps, general mode), area resampling.
        .target(name: "SketchRaster", dependencies: ["SketchCore", "CCairo"]),
        // ONNX Runtime C API shim: header from .deps/ (scripts/setup-onnxruntime.sh), library dlopen()ed at run time.
        .target(name: "COnnxRuntime", linkerSettings: [.linkedLibrary("dl")]),
        // Model evaluation: ORT wrapper, metrics, reports.
        .target(name: "SketchEval", dependencies: ["SketchCore", "SketchIO", "COnnxRuntime"]),
        .executableTarget(
            name: "sketchprep",
            dependencies: [
                "SketchCore", "SketchIO", "SketchRaster", "SketchEval", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "SketchCoreTests", dependencies: ["SketchCore"]),
        .testTarget(name: "SketchIOTests", dependencies: ["SketchIO"]),
        .testTarget(name: "SketchRasterTests", dependencies: ["SketchRaster", "SketchIO"]),
        .testTarget(name: "SketchEvalTests", dependencies: ["SketchEval"], exclude: ["Fixtures"]),
    ]
)
