import Foundation
import SketchIO
import SketchFormats

/// Seconds spent per stage by one worker on one batch.
package struct StageSeconds: Sendable {
    package var parse = 0.0
    package var simplify = 0.0
    package var encode = 0.0
}

/// Where a run's time went, written to `timings.json` next to the output. Wall-clock figures are
/// not reproducible, so they live apart from the manifest and reports (which are byte-identical
/// across runs) and are left out of every byte comparison.
///
/// `stages` are worker seconds summed over threads (parse, simplify, encode; time measured with
/// the monotonic clock around each record's step), and wall seconds of the serial phases
/// (`map`, `sort_spill`, `merge_write`).
package final class StageClock: @unchecked Sendable {
    private let lock = NSLock()
    private var stages: [String: Double] = [:]
    private let start = StageClock.now()

    package init() {}

    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Seconds since `mark`, and moves `mark` to now.
    package static func lap(_ mark: inout Double) -> Double {
        let now = now()
        defer { mark = now }
        return now - mark
    }

    package func add(_ seconds: StageSeconds) {
        lock.lock()
        stages["parse", default: 0] += seconds.parse
        stages["simplify", default: 0] += seconds.simplify
        stages["encode", default: 0] += seconds.encode
        lock.unlock()
    }

    package func addWall(_ stage: String, _ seconds: Double) {
        lock.lock()
        stages[stage, default: 0] += seconds
        lock.unlock()
    }

    /// Writes `{"jobs": N, "stages": {…}, "wall_seconds": S}`.
    package func write(to path: String, jobs: Int) throws {
        lock.lock()
        let stages = self.stages
        lock.unlock()
        let object: [String: Any] = ["jobs": jobs, "wall_seconds": Self.now() - start,
                                     "stages": stages.filter { $0.value > 0 }]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try writeAtomically([UInt8](data) + [0x0A], to: path)
    }
}
