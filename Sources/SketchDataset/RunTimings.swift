import Foundation
import SketchIO

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
    /// Where the time went, for runs that measure their stages (`preprocess`, `merge`): worker
    /// seconds summed over threads per stage and wall seconds of the serial phases; nil otherwise.
    package var stages: [String: Double]?

    /// Creates the figures of a run that handled `items` in `seconds` on `jobs` threads.
    package init(command: String, jobs: Int, seconds: Double, items: Int, stages: [String: Double]? = nil) {
        self.command = command
        self.jobs = jobs
        self.seconds = seconds
        self.items = items
        itemsPerSecond = seconds > 0 ? Double(items) / seconds : 0
        self.stages = stages
    }

    /// The JSON bytes (sorted keys, pretty-printed, final newline): the one form of every
    /// timings file.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [0x0A]
    }

    /// Where the timings of the report at `reportPath` go: `report.json` → `report.timings.json`;
    /// nil when the report goes to a stream (no file is created beside one).
    package static func path(nextTo reportPath: String) -> String? {
        DatasetLayout.timings(beside: reportPath)
    }

    enum CodingKeys: String, CodingKey {
        case command, jobs, seconds, items, stages
        case itemsPerSecond = "items_per_second"
    }
}
