import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// `--report-json FILE`: the run's report as JSON — the same bytes for every run and job count —
/// and its wall-clock figures in `FILE.timings.json` beside it (`RunTimings`, not reproducible).
/// The same on every command that reports: the data commands write their counts (`simplify` and
/// `parity` their own documents), `verify` its findings.
struct ReportJSONOption: ParsableArguments {
    @Option(
        name: .customLong("report-json"),
        help: ArgumentHelp(
            "Write the run's report as JSON to FILE, the same bytes for every run of the same inputs and settings, whatever --jobs (wall-clock figures, where the command measures them, to FILE.timings.json).",
            valueName: "file"))
    var path: String?

    /// Adds the report file to the outputs `paths` checks for clashes.
    func register(in paths: inout OutputPathCheck) {
        paths.outputFile(path, option: "--report-json")
    }

    /// `body`'s result and its wall-clock seconds.
    static func timed<Result>(_ body: () throws -> Result) rethrows -> (Result, Double) {
        let start = MonotonicClock.now()
        let result = try body()
        return (result, MonotonicClock.seconds(since: start))
    }

    /// Writes the report of `command` (when asked for): `counts` with the inputs and outputs, and
    /// `seconds` on `jobs` threads to the timings file.
    func write(
        command: String, counts: RecordCounts, inputs: [String], output: String, quarantine: String?,
        jobs: Int, seconds: Double
    ) throws {
        try write(
            RunReport(command: command, counts: counts, inputs: inputs, output: output, quarantine: quarantine),
            timings: RunTimings(command: command, jobs: jobs, seconds: seconds, items: counts.read))
    }

    /// Writes `document`, a command's own report (when asked for), and `timings` beside it when
    /// the command measures them.
    func write(_ document: some Encodable, timings: RunTimings?) throws {
        guard let path else { return }
        try RunReport.write(document, timings: timings, to: path)
    }
}
