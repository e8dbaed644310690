/// Wall-clock figures of one run. They differ from run to run, so they are kept out of reports
/// and manifests (which stay byte-identical across runs and job counts) and written to a
/// separate `*.timings.json` next to the report. Not reproducible; never compare these files.
package struct RunTimings: Codable, Equatable, Sendable {
    /// The command, e.g. `simplify`.
    package var command: String
    /// Worker threads used.
    package var jobs: Int
    /// Wall-clock seconds.
    package var seconds: Double
    /// Items handled (drawings, images).
    package var items: Int
    /// `items / seconds`.
    package var itemsPerSecond: Double

    /// Creates the figures of a run that handled `items` in `seconds` on `jobs` threads.
    package init(command: String, jobs: Int, seconds: Double, items: Int) {
        self.command = command
        self.jobs = jobs
        self.seconds = seconds
        self.items = items
        itemsPerSecond = seconds > 0 ? Double(items) / seconds : 0
    }

    /// Where the timings of the report at `reportPath` go: `report.json` → `report.timings.json`.
    package static func path(nextTo reportPath: String) -> String {
        (reportPath.hasSuffix(".json") ? String(reportPath.dropLast(5)) : reportPath) + ".timings.json"
    }

    enum CodingKeys: String, CodingKey {
        case command, jobs, seconds, items
        case itemsPerSecond = "items_per_second"
    }
}
