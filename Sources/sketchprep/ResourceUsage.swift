#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak memory of this process or of its waited-for children (`getrusage`).
struct ResourceUsage {
    /// User plus system CPU seconds.
    var cpuSeconds: Double
    /// Peak resident set size in bytes (for children: the largest single child so far).
    var peakResidentBytes: Int

    /// Usage of this process so far.
    static func current() -> ResourceUsage { read(children: false) }

    /// Usage of all children that have been waited for.
    static func children() -> ResourceUsage { read(children: true) }

    private static func read(children: Bool) -> ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        let peak = usage.ru_maxrss * 1024  // kilobytes on Linux
        #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        let peak = usage.ru_maxrss  // bytes on Darwin
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakResidentBytes: peak)
    }

    /// Monotonic wall-clock seconds.
    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
