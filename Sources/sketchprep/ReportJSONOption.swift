import ArgumentParser
import SketchIO
import SketchFormats
import SketchDataset

/// `--report-json FILE`: the run's counts as JSON — the same bytes for every run and job count —
/// and its wall-clock figures in `FILE.timings.json` beside it (`RunTimings`, not reproducible).
/// The same on every data command; `simplify` and `parity` add their own fields.
struct ReportJSONOption: ParsableArguments {
    @Option(name: .customLong("report-json"),
            help: ArgumentHelp("Write the run's counts as JSON to FILE (wall-clock figures to FILE.timings.json).", valueName: "file"))
    var path: String?

    /// Adds the report file to the outputs `paths` checks for clashes.
    func register(in paths: inout OutputPathCheck) {
        paths.outputFile(path, option: "--report-json")
    }

    /// `body`'s result and its wall-clock seconds.
    static func timed<Result>(_ body: () throws -> Result) rethrows -> (Result, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        let elapsed = (clock.now - start).components
        return (result, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    /// Writes the report of `command` (when asked for): `tally` with the inputs and outputs, and
    /// `seconds` on `jobs` threads to the timings file. `notSelected` counts records left out by
    /// design (e.g. beyond `convert`'s stroke-3 sizes).
    func write(command: String, tally: RunTally, notSelected: Int = 0, inputs: [String], output: String, quarantine: String?,
               jobs: Int, seconds: Double) throws {
        guard let path else { return }
        try OutputPaths.writeJSON(RunReport(command: command, inputs: inputs, output: output, quarantine: quarantine, read: tally.read,
                                            written: tally.written, notSelected: notSelected, rejected: tally.rejected,
                                            sourceErrors: tally.sourceErrors, reconciled: tally.read == tally.written + notSelected + tally.rejected),
                                  to: path)
        try OutputPaths.writeJSON(RunTimings(command: command, jobs: jobs, seconds: seconds, items: tally.read),
                                  to: RunTimings.path(nextTo: path))
    }
}

/// The `--report-json` document of the data commands without one of their own.
private struct RunReport: Encodable {
    var command: String
    var inputs: [String]
    var output: String
    var quarantine: String?
    var read: Int
    var written: Int
    var notSelected: Int
    var rejected: Int
    var sourceErrors: Int
    var reconciled: Bool

    enum CodingKeys: String, CodingKey {
        case command, inputs, output, quarantine, read, written, rejected, reconciled
        case notSelected = "not_selected"
        case sourceErrors = "source_errors"
    }
}
