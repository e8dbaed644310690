import ArgumentParser
import Foundation

/// The options every benchmark shares — the sketchprep binary, passes, the Python side,
/// temporary files, the JSON report and the thresholds — and the plumbing around them.
struct BenchRunOptions: ParsableArguments {
    @Option(help: "The sketchprep binary whose commands are timed (a release build).")
    var sketchprep = ".build/release/sketchprep"

    @Option(help: "Passes per measurement; the one with the least CPU time is reported.")
    var passes = 3

    @Option(help: "Python interpreter.")
    var python = "python3"

    @Option(name: .customLong("work-dir"), help: "Directory for temporary files. (default: the system temporary directory)")
    var workDirectory: String?

    @Option(name: .customLong("report-json"), help: "Also write the measurements and speed-ups to this JSON file.")
    var reportJSON: String?

    @Option(help: "Directory of <benchmark>.json minimum speed-ups (e.g. Benchmarks/Thresholds); exit 1 when one is not met.")
    var thresholds: String?

    func validate() throws {
        if passes < 1 { throw ValidationError("--passes must be ≥ 1") }
    }

    /// `inputs` when given, else the shared raw drawings when present, else the bundled sample.
    static func rawInputs(_ inputs: [String]) -> [String] {
        if !inputs.isEmpty { return inputs }
        let directory = "\(SharedDataDirectory.path)/quickdraw/raw"
        return [FileManager.default.fileExists(atPath: directory) ? directory : "SampleData/quickdraw/raw"]
    }

    /// Creates a fresh directory for one run's temporary files; the caller removes it.
    func makeWorkDirectory(named name: String) throws -> URL {
        let work = URL(fileURLWithPath: workDirectory ?? NSTemporaryDirectory())
            .appendingPathComponent("sketchprep-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// Runs `body` (which returns the drawings it handled) once per pass in this process and
    /// keeps the pass with the least CPU time.
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

    /// Runs `arguments` as a child once per pass (`prepare` gets the pass number before each
    /// run) and keeps the pass with the least CPU time, with that child's peak RSS.
    func bestChildPass(
        stage: String, drawings: Int, bytes: Int, standardOutput: String = "/dev/null",
        _ arguments: (Int) throws -> [String]
    ) throws -> BenchMeasurement {
        var best: BenchMeasurement?
        for pass in 0..<passes {
            let command = try arguments(pass)
            let runnerPeak = ResourceUsage.current().peakResidentBytes
            let child = try ChildProcess.run(command, standardOutput: standardOutput)
            guard child.status == 0 else {
                throw BenchmarkError(
                    "`\(command.joined(separator: " "))` failed with status \(child.status) (is `make setup` done and sketchprep built with `make build`?)"
                )
            }
            var measurement = BenchMeasurement(
                stage: stage, drawings: drawings, bytes: bytes, seconds: child.seconds,
                cpuSeconds: child.usage.cpuSeconds)
            measurement.peakResidentBytes = child.usage.peakResidentBytes
            measurement.runnerPeakResidentBytes = runnerPeak
            if best == nil || measurement.cpuSeconds < best!.cpuSeconds { best = measurement }
        }
        return best!
    }

    /// Prints the report's speed-ups, writes `--report-json`, then checks `--thresholds`.
    func finish<Report: Encodable>(_ report: Report, benchmark: String, speedUps: [String: Double]) throws {
        for (name, value) in speedUps.sorted(by: { $0.key < $1.key }) {
            print(String(format: "speed-up %@: %.2f×", name, value))
        }
        if let reportJSON {
            try writeSortedJSON(BenchReport(report: report, speedUps: speedUps), to: reportJSON)
        }
        if let thresholds {
            try Thresholds(directory: thresholds, benchmark: benchmark).check(speedUps)
        }
    }

    /// Bytes as megabytes with one decimal, as every benchmark prints them.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }
}

/// A benchmark's report with its speed-ups, as `--report-json` writes it.
private struct BenchReport<Report: Encodable>: Encodable {
    var report: Report
    var speedUps: [String: Double]

    func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(speedUps, forKey: .speedUps)
    }

    enum CodingKeys: String, CodingKey { case speedUps = "speed_ups" }
}

/// Writes a progress line to standard error.
func printToStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
