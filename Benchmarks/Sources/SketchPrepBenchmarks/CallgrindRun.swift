import Foundation

/// Runs one command under `valgrind --tool=callgrind` and reads the instructions it executed.
///
/// An instruction count does not depend on the machine's load or clock, only on the binary, its
/// input and its environment, so the child gets a fixed one (`env -i` with `PATH`, `LC_ALL=C` and
/// `SWIFT_DETERMINISTIC_HASHING=1`: a per-process hash seed changes how often dictionaries and sets
/// collide) and fixed paths: the same build on the same input gives the same count, to within a few
/// thousand instructions (random temporary-file names, the dispatch thread), on every run.
struct CallgrindRun {
    /// The valgrind executable (looked up on `PATH`).
    var valgrind: String
    /// Where the callgrind output files and valgrind's log go.
    var work: URL

    /// The valgrind version line (`valgrind-3.19.0`), for the report.
    func version() throws -> String {
        let output = work.appendingPathComponent("valgrind-version.txt")
        let child = try ChildProcess.run([valgrind, "--version"], standardOutput: output.path)
        guard child.status == 0 else {
            throw BenchmarkError(
                "`\(valgrind) --version` failed with status \(child.status) (valgrind is in scripts/apt-packages-test.txt: `make setup-tests`)"
            )
        }
        return try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A copy of `binary` in the work directory without its debug information, the code
    /// untouched: valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes, and gives up.
    func withoutDebugInformation(_ binary: String) throws -> String {
        let copy = work.appendingPathComponent(URL(fileURLWithPath: binary).lastPathComponent).path
        let child = try ChildProcess.run(["objcopy", "--strip-debug", binary, copy], standardOutput: "/dev/null")
        guard child.status == 0 else {
            throw BenchmarkError("`objcopy --strip-debug \(binary) \(copy)` failed with status \(child.status) (is \(binary) built?)")
        }
        return copy
    }

    /// The instructions `arguments` executed, counted only inside the function whose symbol is
    /// `toggle` when one is given; the child's standard output goes to `standardOutput`, and it
    /// must exit with `expectedStatus`.
    func instructions(
        _ name: String, _ arguments: [String], toggle: String? = nil, standardOutput: String = "/dev/null", expectedStatus: Int32 = 0
    ) throws -> Int {
        let counts = work.appendingPathComponent("callgrind.\(name).out").path
        let log = work.appendingPathComponent("callgrind.\(name).log").path
        var command = [
            "env", "-i", "PATH=/usr/bin:/bin", "LC_ALL=C", "SWIFT_DETERMINISTIC_HASHING=1", valgrind, "--tool=callgrind",
            "--callgrind-out-file=\(counts)",
            "--log-file=\(log)",
        ]
        if let toggle { command.append("--toggle-collect=\(toggle)") }
        let child = try ChildProcess.run(command + arguments, standardOutput: standardOutput)
        guard child.status == expectedStatus else {
            throw BenchmarkError(
                "`\(arguments.joined(separator: " "))` under callgrind exited with status \(child.status), not \(expectedStatus)"
                    + " (valgrind's log: \(log))")
        }
        return try Self.summary(of: counts)
    }

    /// The `summary:` (else `totals:`) figure of a callgrind output file: its instructions (Ir).
    static func summary(of path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for key in ["summary:", "totals:"] {
            for line in text.split(separator: "\n") where line.hasPrefix(key) {
                if let count = Int(line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)) { return count }
            }
        }
        throw BenchmarkError("\(path): no `summary:` or `totals:` line (not a callgrind output file?)")
    }
}
