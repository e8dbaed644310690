import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchRaster

/// `sketchprep-benchmarks raster`: 28×28 render rate and PNG decode + 256×256 resample rate, one
/// thread, inputs preloaded in memory, next to the same work in pycairo and Pillow
/// (`Benchmarks/Scripts/bench_raster_reference.py`, run as a child on the same data in the same run).
struct BenchRasterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Google-bitmap rendering and PNG decode+resample rates next to pycairo and Pillow (one thread).")

    @Option(help: "Shared data directory (holds quickdraw/simplified and tuberlin). (default: $SKETCHPREP_SHARED, else ../shared/data)")
    var shared: String?

    @Option(help: "Simplified drawings to render (the first ones of the sorted files).")
    var drawings = 7100

    @Option(help: "TU-Berlin PNGs to decode and resample.")
    var images = 3200

    @Option(help: "Resample target side.")
    var size = 256

    @Option(
        name: .customLong("python-reference"),
        help: "Python reference, run as SCRIPT --json --shared DIR --drawings N --images N --size N --repeats N.")
    var pythonReference = "Benchmarks/Scripts/bench_raster_reference.py"

    @OptionGroup var common: BenchRunOptions

    private var sharedDirectory: String { shared ?? SharedDataDirectory.path }

    func validate() throws {
        guard drawings >= 1, images >= 1 else { throw ValidationError("--drawings and --images must be at least 1") }
        guard (1...8192).contains(size) else { throw ValidationError("--size must be between 1 and 8192") }
    }

    func run() throws {
        let inputs = try loadDrawings()
        let blobs = try ImageInputs.expand(["\(sharedDirectory)/tuberlin"]).files.prefix(images).map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw BenchmarkError("\(path): cannot read the PNG file")
            }
            return [UInt8](data)
        }
        let renderer = GoogleBitmapRenderer()
        var checksum = 0
        let render = fastest { for drawing in inputs { checksum &+= Int((try? renderer.render(drawing))?[14 * 28 + 14] ?? 0) } }
        let resampler = BoxResampler(side: size)
        var failures = 0
        let decode = fastest {
            for blob in blobs {
                do {
                    checksum &+= Int(resampler.resample(try PNGImage.decodeGray(blob)).pixels[0])
                } catch {
                    failures += 1
                }
            }
        }
        guard failures == 0 else { throw BenchmarkError("\(sharedDirectory)/tuberlin: \(failures) PNG files failed to decode") }

        let work = try common.makeWorkDirectory(named: "bench-raster")
        defer { try? FileManager.default.removeItem(at: work) }
        let pythonOutput = work.appendingPathComponent("python.json")
        printToStandardError("bench raster: running the Python reference \(pythonReference)")
        let child = try ChildProcess.run(
            [
                common.python, pythonReference, "--json", "--shared", sharedDirectory, "--drawings", "\(inputs.count)",
                "--images", "\(blobs.count)", "--size", "\(size)", "--repeats", "\(common.passes)",
            ],
            standardOutput: pythonOutput.path)
        guard child.status == 0 else {
            throw BenchmarkError("the Python reference \(pythonReference) failed with status \(child.status) (is `make setup` done?)")
        }
        let python = try JSONDecoder().decode([String: RateMeasurement].self, from: Data(contentsOf: pythonOutput))
        guard let pythonRender = python["render_28"], let pythonDecode = python["png_decode_resample"],
            pythonRender.items == inputs.count, pythonDecode.items == blobs.count
        else {
            throw BenchmarkError(
                "\(pythonReference): expected render_28 and png_decode_resample over \(inputs.count) drawings and \(blobs.count) images")
        }
        let report = BenchRasterReport(
            render28: RateMeasurement(items: inputs.count, seconds: render), pythonRender28: pythonRender,
            pngDecodeResample: RateMeasurement(items: blobs.count, seconds: decode), pythonPNGDecodeResample: pythonDecode,
            size: size, checksum: checksum)
        print(report.render28.line("sketchprep render 28x28"))
        print(pythonRender.line("pycairo render 28x28 (Google recipe)"))
        print(report.pngDecodeResample.line("sketchprep PNG decode + box \(size)x\(size)"))
        print(pythonDecode.line("Pillow PNG decode + box \(size)x\(size)"))
        try common.finish(
            report, benchmark: "raster",
            speedUps: [
                "render_28": report.render28.perSecond / pythonRender.perSecond,
                "png_decode_resample": report.pngDecodeResample.perSecond / pythonDecode.perSecond,
            ])
    }

    /// The first --drawings drawings of the shared simplified files, in file order.
    private func loadDrawings() throws -> [Drawing] {
        try QuickDrawReader(inputs: ["\(sharedDirectory)/quickdraw/simplified"]).readFirst(drawings) { _ in }.map(\.drawing)
    }

    /// Wall-clock seconds of the fastest of --passes runs of `work`.
    private func fastest(_ work: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<common.passes {
            let start = ResourceUsage.wallSeconds()
            work()
            best = min(best, ResourceUsage.wallSeconds() - start)
        }
        return best
    }
}

/// Items handled in the fastest run and its wall-clock seconds.
struct RateMeasurement: Codable {
    var items: Int
    var seconds: Double

    init(items: Int, seconds: Double) {
        self.items = items
        self.seconds = seconds
    }

    var perSecond: Double { Double(items) / seconds }

    func line(_ name: String) -> String {
        "\(name): \(items) in \(String(format: "%.3f", seconds)) s = \(Int(perSecond)) items/s"
    }
}

/// The `--report-json` document of `raster`.
struct BenchRasterReport: Encodable {
    var render28: RateMeasurement
    var pythonRender28: RateMeasurement
    var pngDecodeResample: RateMeasurement
    var pythonPNGDecodeResample: RateMeasurement
    var size: Int
    var checksum: Int

    enum CodingKeys: String, CodingKey {
        case size, checksum
        case render28 = "render_28"
        case pythonRender28 = "python_render_28"
        case pngDecodeResample = "png_decode_resample"
        case pythonPNGDecodeResample = "python_png_decode_resample"
    }
}
