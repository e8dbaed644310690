import ArgumentParser

/// `--report-json FILE` on the commands whose report is their counts (`encode`, `bitmap`,
/// `raster`, `stats`, `convert`): a ``CountsReport``, identical for every run and `--jobs`.
struct ReportJSONOption: ParsableArguments {
    @Option(name: .customLong("report-json"), help: ArgumentHelp("Also write the run's counts to this JSON file (identical for every run and --jobs).", valueName: "file"))
    var path: String?

    /// Writes `report` to ``path`` when one was given.
    func write(_ report: @autoclosure () -> CountsReport) throws {
        if let path { try OutputPaths.writeJSON(report(), to: path) }
    }
}
