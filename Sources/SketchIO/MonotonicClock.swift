#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one clock of the project: monotonic seconds (`CLOCK_MONOTONIC`), for progress rates, the
/// per-stage timings of a run and the wall-clock figures beside reports. Never part of an output.
package enum MonotonicClock {
    /// Seconds since an arbitrary fixed point (only differences mean anything).
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

    /// Seconds since `start` (a value of ``now()``).
    package static func seconds(since start: Double) -> Double { now() - start }
}
