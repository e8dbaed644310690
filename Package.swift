// swift-tools-version:6.0
import PackageDescription

// Data flows left to right: SketchCore → SketchIO → SketchFormats → SketchDataset → SketchRaster →
// SketchReports → SketchPipeline → SketchEval → sketchprep (→ SketchPrepMain, the program). Each target depends only on
// targets to its left.
let package = Package(
    name: "SketchPrep",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "SketchCore", targets: ["SketchCore"]),
        .library(name: "SketchIO", targets: ["SketchIO"]),
        .library(name: "SketchFormats", targets: ["SketchFormats"]),
        .library(name: "SketchDataset", targets: ["SketchDataset"]),
        .library(name: "SketchRaster", targets: ["SketchRaster"]),
        .library(name: "SketchReports", targets: ["SketchReports"]),
        .library(name: "SketchPipeline", targets: ["SketchPipeline"]),
        .library(name: "SketchEval", targets: ["SketchEval"]),
        .executable(name: "sketchprep", targets: ["SketchPrepMain"]),
        // The Python package's native library (`sketchprep._native` loads it with ctypes): `make native` builds it with
        // the Swift runtime linked statically, into .build-native/ (docs/python.md).
        .library(name: "SketchPrepNative", type: .dynamic, targets: ["SketchPrepNative"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // Pure Swift: drawing model, simplification, stroke encoding. No C dependency (iOS-safe).
        .target(name: "SketchCore"),
        // Files and streams: byte sources (gzip inflated), line splitting, atomic and temporary files,
        // directory walks, SHA-256 of files, system errors, free space, output-path checks, live messages (shown by the
        // CLI) and progress.
        .target(
            name: "SketchIO", dependencies: ["CZlib", "COpenSSL", "CFileSystem", .product(name: "SystemPackage", package: "swift-system")]),
        // Byte formats (codecs only): NDJSON, Google .bin, stroke-3 .npz, PNG, NPY, TFRecord, tar, CRC32C; SVG curves flattened by cairo.
        .target(
            name: "SketchFormats",
            dependencies: [
                "SketchCore", "SketchIO", "CZlib", "CDeflate", "CPNG", "CCairo", "CCRC32C", "CArchive",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            linkerSettings: [
                // libarchive's tar writer (TarArchive): linked statically from Debian's libarchive-dev in release
                // builds (the CLI, the wheel's library), which then load none of the nine libraries the shared
                // libarchive does (compression, ACL, XML, ICU); its other writers, which need them, are never called
                // and the release link's --gc-sections drops them. Debug builds keep every section, so they link
                // the shared library.
                .linkedLibrary(":libarchive.a", .when(configuration: .release)),
                .linkedLibrary("archive", .when(configuration: .debug)),
            ]),
        // Datasets: examples, file layout, shard layout, split, manifest, quarantine, record counts.
        .target(
            name: "SketchDataset",
            dependencies: [
                "SketchCore", "SketchIO", "SketchFormats", .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Rasterisation: cairo stroke rendering (Google 28x28 bitmaps, general mode), area resampling.
        .target(name: "SketchRaster", dependencies: ["SketchCore", "CCairo"]),
        // Reports: the HTML / Markdown / SVG toolkit of the stats, parity and eval pages (escaping, histograms, thumbnails).
        .target(name: "SketchReports", dependencies: ["SketchCore", "SketchIO", "SketchFormats"]),
        // The engine (Engine/), pipelines in YAML with partitions and merge (Preprocess/), the jobs (Jobs/), stats (Stats/).
        // YAMLAliasCheck also imports libyaml's `CYaml`, which comes with the Yams product: Yams declares it as a
        // target, not a product, so it cannot be named here (the alias check must read events before Yams composes).
        .target(
            name: "SketchPipeline",
            dependencies: [
                "SketchCore", "SketchIO", "SketchFormats", "SketchDataset", "SketchRaster", "SketchReports",
                .product(name: "Yams", package: "Yams"), .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // Model evaluation: ORT wrapper, metrics, the eval report pages.
        .target(
            name: "SketchEval",
            dependencies: [
                "SketchIO", "SketchFormats", "SketchDataset", "SketchReports", "COnnxRuntime",
            ]),
        // The CLI: parses arguments, calls the libraries, prints. A library, so that the wheel's library can run it too
        // (its `sketchprep` launcher, docs/python.md); the program is SketchPrepMain.
        .target(
            name: "sketchprep",
            dependencies: [
                "SketchCore", "SketchIO", "SketchFormats", "SketchDataset", "SketchRaster", "SketchReports", "SketchPipeline",
                "SketchEval", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The `sketchprep` program: runs the CLI's root command.
        .executableTarget(
            name: "SketchPrepMain",
            dependencies: ["sketchprep"]
            // No linker flags here: a plain `swift build -c release` links the Swift runtime dynamically; `make build`
            // adds `--static-swift-stdlib` so that its binary starts without the toolchain (docs/cluster.md).
        ),

        // The C ABI of the Python package: entry points declared once in python/native/include/sketchprep_native.h
        // (Tests/python/package/test_native_abi.py checks _native.py's ctypes table against it), calling the same
        // library code as the CLI, and the CLI itself for the wheel's `sketchprep` launcher (python/launcher).
        .target(
            name: "SketchPrepNative",
            dependencies: ["SketchCore", "SketchIO", "SketchFormats", "SketchDataset", "SketchRaster", "SketchPipeline", "sketchprep"],
            path: "python/native", exclude: ["include"]
            // No linker flags here, as for the CLI: `make native` links the wheel's library with the Swift runtime static
            // (Makefile, NATIVE), so that a plain `swift build -c release` links.
        ),

        // C shims, each as small as the library it wraps.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libdeflate: the deflate of RGB PNGs (time-channel rasters, contact sheets) and the
        // whole-buffer inflate of the gray PNGs PNGImage decodes without libpng.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // OpenSSL's libcrypto, for SHA-256 (checksums of every input and shard).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // libarchive's headers; SketchFormats links the library (no pkg-config, whose `-larchive` would always link
        // the shared one).
        .systemLibrary(name: "CArchive"),
        // glibc's <malloc.h> (mallopt), for the CLI's allocator tuning on Linux.
        .systemLibrary(name: "CMalloc"),
        // renameat2(RENAME_EXCHANGE), which Glibc's Swift module lacks, for SketchIO's directory swap.
        .systemLibrary(name: "CFileSystem"),
        // ONNX Runtime C API shim: the part of the C API it calls is declared in the target, the library dlopen()ed at run time.
        .target(name: "COnnxRuntime", linkerSettings: [.linkedLibrary("dl")]),
        // CRC-32C with SSE 4.2's CRC32 instruction (run-file blocks, TFRecord framing).
        .target(name: "CCRC32C"),

        // Tests mirror Sources/.
        .target(name: "SketchTestSupport", dependencies: ["SketchCore", "SketchIO", "SketchFormats"], path: "Tests/SketchTestSupport"),
        .testTarget(name: "SketchCoreTests", dependencies: ["SketchCore"]),
        .testTarget(name: "SketchIOTests", dependencies: ["SketchIO", "SketchTestSupport"]),
        .testTarget(name: "SketchFormatsTests", dependencies: ["SketchCore", "SketchIO", "SketchFormats", "SketchTestSupport", "CZlib"]),
        .testTarget(name: "SketchDatasetTests", dependencies: ["SketchIO", "SketchFormats", "SketchDataset", "SketchTestSupport"]),
        .testTarget(name: "SketchRasterTests", dependencies: ["SketchCore", "SketchFormats", "SketchRaster"]),
        .testTarget(name: "SketchReportsTests", dependencies: ["SketchReports", "SketchTestSupport"]),
        .testTarget(
            name: "SketchPipelineTests",
            dependencies: [
                "SketchCore", "SketchFormats", "SketchDataset", "SketchRaster", "SketchPipeline", "SketchTestSupport",
            ]),
        .testTarget(name: "SketchEvalTests", dependencies: ["SketchDataset", "SketchEval", "SketchTestSupport"], exclude: ["Fixtures"]),
    ]
)

// `make test` (CI: `make check`) sets SKETCHPREP_WARNINGS_AS_ERRORS=1: a warning in any of this package's own
// Swift targets fails the build. Dependencies are left alone: SwiftPM compiles them with
// -suppress-warnings, which `swift build -Xswiftc -warnings-as-errors` would contradict (swiftc refuses both).
if Context.environment["SKETCHPREP_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}
