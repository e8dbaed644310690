import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline
import SketchRaster

/// `sketchprep bench raster`: 28×28 render rate and PNG decode + 256×256 resample rate, one thread,
/// inputs preloaded in memory (the same work `scripts/bench_raster.py` times with pycairo and Pillow).
struct RasterBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Time Google-bitmap rendering and PNG decode+resample on the shared data (one thread).")

    @Option(help: "Shared data directory (holds quickdraw/simplified and tuberlin). (default: $SKETCHPREP_SHARED, else ../shared/data)")
    var shared: String?

    private var sharedDirectory: String { shared ?? SharedDataDirectory.path }

    @Option(help: "Simplified drawings to render (the first ones of the sorted files).")
    var drawings = 7100

    @Option(help: "TU-Berlin PNGs to decode and resample.")
    var images = 3200

    @Option(help: "Resample target side.")
    var size = 256

    @Option(help: "Repeat each measurement this many times and keep the fastest.")
    var repeats = 3

    @Flag(help: "Print one JSON object instead of text lines.")
    var json = false

    func validate() throws {
        guard drawings >= 1, images >= 1, repeats >= 1 else { throw ValidationError("--drawings, --images and --repeats must be at least 1") }
        guard (1...8192).contains(size) else { throw ValidationError("--size must be between 1 and 8192") }
    }

    func run() throws {
        let inputs = try loadDrawings()
        let blobs = try ImageInputs.expand(["\(sharedDirectory)/tuberlin"]).files.prefix(images).map { path in
            try InputFile.readAll(path)
        }
        let renderer = GoogleBitmapRenderer()
        var checksum = 0
        let renderSeconds = fastest {
            for drawing in inputs { checksum &+= Int(renderer.render(drawing)[14 * 28 + 14]) }
        }
        let resampler = BoxResampler(side: size)
        var failures = 0
        let decodeSeconds = fastest {
            for blob in blobs {
                do {
                    checksum &+= Int(resampler.resample(try PNGImage.decodeGray(blob)).pixels[0])
                } catch {
                    failures += 1
                }
            }
        }
        let renderRate = Double(inputs.count) / renderSeconds
        let decodeRate = Double(blobs.count) / decodeSeconds
        if json {
            print("""
                {"render_28": {"items": \(inputs.count), "seconds": \(renderSeconds), "per_second": \(renderRate)}, \
                "png_decode_resample": {"items": \(blobs.count), "seconds": \(decodeSeconds), "per_second": \(decodeRate), \
                "size": \(size), "failures": \(failures)}, "checksum": \(checksum)}
                """)
        } else {
            print(Self.line("sketchprep render 28x28", inputs.count, renderSeconds))
            print(Self.line("sketchprep decode+box \(size)x\(size)", blobs.count, decodeSeconds))
        }
    }

    private func loadDrawings() throws -> [Drawing] {
        try QuickDrawReader(inputs: ["\(sharedDirectory)/quickdraw/simplified"]).readFirst(drawings) { _ in }.map(\.drawing)
    }

    /// Wall-clock seconds of the fastest of `repeats` runs of `work`.
    private func fastest(_ work: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = ResourceUsage.wallSeconds()
            work()
            best = min(best, ResourceUsage.wallSeconds() - start)
        }
        return best
    }

    private static func line(_ name: String, _ count: Int, _ seconds: Double) -> String {
        "\(name): \(count) in \(String(format: "%.3f", seconds)) s = \(Int(Double(count) / seconds)) items/s"
    }
}
