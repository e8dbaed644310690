import Foundation

/// How many CPUs this process may use: the default of every `--jobs` option and of `jobs:` in
/// pipeline files.
///
/// The smallest of, where present:
/// 1. `SLURM_CPUS_PER_TASK` (what a Slurm job step was granted);
/// 2. the CPU affinity mask (`Cpus_allowed` in `/proc/self/status`, as `sched_getaffinity` sees it:
///    `taskset`, Kubernetes' CPU manager);
/// 3. the cgroup v2 quota in `/sys/fs/cgroup/cpu.max` (`quota period`, rounded up; Docker's and
///    Kubernetes' CPU limits);
/// and never less than 1. The machine's core count is only the fallback when none of these says.
package enum AvailableProcessors {
    /// The worker thread counts a `--jobs` option or the Python package's `jobs=` may ask for.
    package static let jobsRange = 1...256

    /// The number of CPUs to use by default.
    package static var count: Int {
        let environment = ProcessInfo.processInfo.environment
        var limits: [Int] = [ProcessInfo.processInfo.activeProcessorCount]
        if let slurm = environment["SLURM_CPUS_PER_TASK"].flatMap(Int.init), slurm > 0 { limits.append(slurm) }
        if let affinity = affinityCount() { limits.append(affinity) }
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8),
            let quota = cgroupQuota(text)
        {
            limits.append(quota)
        }
        return max(1, limits.min()!)
    }

    /// CPUs in the affinity mask, or nil where `/proc` does not say.
    private static func affinityCount() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed:") }.flatMap { affinityMaskCount(String($0.dropFirst(13))) }
    }

    /// CPUs in a `Cpus_allowed` hex mask such as `ff,ffffffff` (nil when it names none).
    package static func affinityMaskCount(_ mask: String) -> Int? {
        var count = 0
        for character in mask where character != "," && character != " " && character != "\t" {
            guard let nibble = character.hexDigitValue else { return nil }
            count += nibble.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }

    /// CPUs granted by a cgroup v2 `cpu.max` line (`max 100000` means no limit → nil).
    package static func cgroupQuota(_ line: String) -> Int? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let quota = Double(fields[0]), let period = Double(fields[1]), period > 0 else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }
}
