#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one child process and measures it alone: wall time, CPU time and peak RSS from
/// `wait4`, so that several children in one benchmark do not mix their peaks (as
/// `getrusage(RUSAGE_CHILDREN)` would). The one way the benchmarks time a child (sketchprep or a
/// Python reference); swift-subprocess does not report a child's resource usage.
struct ChildProcess {
    /// What a finished child reports.
    struct Result {
        /// Exit status (128 + signal number when killed by a signal).
        var status: Int32
        /// Wall-clock seconds from spawn to exit.
        var seconds: Double
        /// The child's CPU time and peak RSS.
        var usage: ResourceUsage
    }

    /// Runs `arguments` (looked up on PATH), standard output to `standardOutput`, and waits.
    static func run(_ arguments: [String], standardOutput: String) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let start = ResourceUsage.wallSeconds()
        #if canImport(Glibc)
        let environment = environ
        #else
        let environment = _NSGetEnviron().pointee
        #endif
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environment)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = ResourceUsage.wallSeconds() - start
        let signal = status & 0x7f
        return Result(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, seconds: seconds,
            usage: ResourceUsage(usage))
    }
}
