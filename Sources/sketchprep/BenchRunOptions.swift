import ArgumentParser
import Foundation

/// The options the stroke benchmarks (`bench simplify`, `bench preprocess`) share: inputs, passes,
/// the Python side, where temporary files go and the JSON report — and the plumbing around them.
struct BenchRunOptions: ParsableArguments {
    @Argument(help: "Raw NDJSON inputs. (default: $SKETCHPREP_SHARED/quickdraw/raw, SKETCHPREP_SHARED defaulting to ../shared/data; else SampleData/quickdraw/raw)")
    var inputs: [String] = []

    @Option(help: "Passes per in-process stage; the one with the least CPU time is reported.")
    var passes = 3

    @Option(help: "Python interpreter.")
    var python = "python3"

    @Flag(name: .customLong("skip-python"), help: "Do not run the Python reference.")
    var skipPython = false

    @Option(name: .customLong("work-dir"), help: "Directory for temporary files. (default: the system temporary directory)")
    var workDirectory: String?

    @Option(name: .customLong("report-json"), help: "Also write the measurements to this JSON file.")
    var reportJSON: String?

    func validate() throws {
        if passes < 1 { throw ValidationError("--passes must be ≥ 1") }
    }

    /// The inputs given, else the shared raw directory when present, else the bundled sample.
    var resolvedInputs: [String] {
        if !inputs.isEmpty { return inputs }
        let raw = "\(SharedDataDirectory.path)/quickdraw/raw"
        return [FileManager.default.fileExists(atPath: raw) ? raw : "SampleData/quickdraw/raw"]
    }

    /// Creates a fresh directory for one run's temporary files; the caller removes it.
    func makeWorkDirectory(named name: String) throws -> URL {
        let work = URL(fileURLWithPath: workDirectory ?? NSTemporaryDirectory())
            .appendingPathComponent("sketchprep-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// Runs `body` (which returns the drawings it handled) once per pass and keeps the pass with
    /// the least CPU time.
    func bestPass(stage: String, bytes: Int, _ body: () throws -> Int) throws -> BenchMeasurement {
        var best: BenchMeasurement?
        for _ in 0..<passes {
            let startUsage = ResourceUsage.current()
            let start = ResourceUsage.wallSeconds()
            let drawings = try body()
            let seconds = ResourceUsage.wallSeconds() - start
            let cpu = ResourceUsage.current().cpuSeconds - startUsage.cpuSeconds
            let measurement = BenchMeasurement(stage: stage, drawings: drawings, bytes: bytes, seconds: seconds, cpuSeconds: cpu)
            if best == nil || measurement.cpuSeconds < best!.cpuSeconds { best = measurement }
        }
        return best!
    }

    /// Prints how much faster sketchprep's last (headline) stage ran than the Python reference.
    static func printSpeedUp(of command: String, stages: [BenchMeasurement], python: BenchMeasurement) {
        guard let swift = stages.last, python.seconds > 0 else { return }
        print(String(format: "speed-up of sketchprep %@ over the Python reference: %.1f× (wall), %.1f× (CPU)",
                     command, swift.drawingsPerSecond / python.drawingsPerSecond,
                     swift.drawingsPerCPUSecond / python.drawingsPerCPUSecond))
    }

    /// Bytes as megabytes with one decimal, as every benchmark prints them.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }
}
