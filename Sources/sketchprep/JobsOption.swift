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
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
    }

    /// The job count to use.
    var resolved: Int { jobs ?? AvailableProcessors.count }
}
