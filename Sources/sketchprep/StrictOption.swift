import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO

/// `--strict`, shared by the data commands: whether rejected records and damaged or unreadable
/// sources make the run fail. Without it a run exits 0 whatever it quarantined, unless sources
/// failed and nothing at all could be read (docs/limits.md).
struct StrictOption: ParsableArguments {
    @Flag(
        help:
            "Exit with status 1 when any record was rejected or any source was damaged or unreadable (without it: only when nothing could be read)."
    )
    var strict = false

    /// Throws (exit status 1, with a message on stderr) when `tally` fails under this option.
    func check(_ tally: RecordCounts, command: String) throws {
        guard tally.fails(strict: strict) else { return }
        let what =
            strict
            ? "--strict: \(tally.rejected) rejected record(s), \(tally.sourceErrors) source error(s)"
            : "no record could be read (\(tally.sourceErrors) source error(s))"
        printToStandardError("\(command): \(what); see the quarantine file")
        throw ExitCode.failure
    }
}
