import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// Seconds spent per stage by one worker on one batch.
package struct StageSeconds: Sendable {
    package var parse = 0.0
    package var simplify = 0.0
    package var encode = 0.0
}

/// Where a run's time went, written to `timings.json` next to the output in the one timings
/// schema (`RunTimings`, with its `stages`). Wall-clock figures are not reproducible, so they live
/// apart from the manifest and reports (which are byte-identical across runs) and are left out of
/// every byte comparison.
///
/// `stages` are worker seconds summed over threads (parse, simplify, encode; time measured with
/// `MonotonicClock` around each record's step), CPU seconds of the two sides (`map`: every thread
/// of the map side; `map_serial`: its calling thread, which reads and feeds the sink; `reduce`: the
/// reduce parts' threads summed), and wall seconds of the phases (`hash_inputs`, `map_wall`,
/// `sort_spill`, `reduce_wall`, `finalize_wall`).
package final class StageClock: Sendable {
    private let command: String
    private let stages = LockedValue<[String: Double]>([:])
    private let start = MonotonicClock.now()

    /// CPU seconds (user and system) used so far by this process (every thread), or with
    /// `thread` by the calling thread.
    package static func cpuSeconds(thread: Bool = false) -> Double {
        var time = timespec()
        clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// A clock for a run of `command` that starts now.
    package init(command: String = "preprocess") { self.command = command }

    package func add(_ seconds: StageSeconds) {
        stages.withLock { stages in
            stages["parse", default: 0] += seconds.parse
            stages["simplify", default: 0] += seconds.simplify
            stages["encode", default: 0] += seconds.encode
        }
    }

    package func addWall(_ stage: String, _ seconds: Double) {
        stages.withLock { $0[stage, default: 0] += seconds }
    }

    /// Writes the run's `RunTimings`: `jobs`, the wall-clock seconds since the clock started,
    /// `items` handled (records read) and the stages.
    package func write(to path: String, jobs: Int, items: Int = 0) throws {
        let stages = self.stages.withLock { $0 }.filter { $0.value > 0 }
        let timings = RunTimings(command: command, jobs: jobs, seconds: MonotonicClock.seconds(since: start), items: items, stages: stages)
        try writeAtomically(try timings.encoded(), to: path)
    }
}
