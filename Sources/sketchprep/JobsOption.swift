import ArgumentParser
import SketchPipeline

/// `--jobs N`: worker threads of a data command. The same on every command; the output bytes do
/// not depend on it.
struct JobsOption: ParsableArguments {
    @Option(
        name: [.short, .long],
        help:
            "Worker threads (1–256). Output bytes are identical for every value. (default: the CPUs this process may use: SLURM_CPUS_PER_TASK, affinity mask or cgroup quota)"
    )
    var jobs: Int?

    func validate() throws {
        let range = AvailableProcessors.jobsRange
        if let jobs, !range.contains(jobs) {
            throw ValidationError("--jobs must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    /// The job count to use.
    var resolved: Int { jobs ?? AvailableProcessors.count }
}
