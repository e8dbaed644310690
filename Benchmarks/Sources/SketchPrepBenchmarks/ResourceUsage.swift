#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak memory of this process (`getrusage`) or of one child (`wait4`).
struct ResourceUsage {
    /// User plus system CPU seconds.
    var cpuSeconds: Double
    /// Peak resident set size in bytes.
    var peakResidentBytes: Int

    /// Usage of this process so far.
    static func current() -> ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return ResourceUsage(usage)
    }

    /// Converts a `rusage` record.
    init(_ usage: rusage) {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        #if canImport(Glibc)
        peakResidentBytes = usage.ru_maxrss * 1024  // kilobytes on Linux
        #else
        peakResidentBytes = usage.ru_maxrss  // bytes on Darwin
        #endif
    }

    /// Creates a usage record.
    init(cpuSeconds: Double, peakResidentBytes: Int) {
        self.cpuSeconds = cpuSeconds
        self.peakResidentBytes = peakResidentBytes
    }

    /// Monotonic wall-clock seconds.
    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
