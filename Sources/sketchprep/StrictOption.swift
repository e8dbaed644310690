import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO

/// `--strict`, shared by the data commands: whether rejected records and damaged or unreadable
/// sources make the run fail. Without it a run exits 0 whatever it quarantined, as long as it
/// wrote a record (`RecordCounts.failure(strict:rejectedByReason:)`, docs/limits.md).
struct StrictOption: ParsableArguments {
    @Flag(
        help:
            "Exit with status 1 when any record was rejected or any source was damaged or unreadable (without it: only when no record was written)."
    )
    var strict = false

    /// Throws (exit status 1, with the reason on stderr) when `tally` fails under this option;
    /// `rejectedByReason` names the commonest reason when every record was rejected, and
    /// `mayWriteNothing` marks one part of a larger run (`RecordCounts.failure`).
    func check(_ tally: RecordCounts, command: String, rejectedByReason: [String: Int] = [:], mayWriteNothing: Bool = false) throws {
        guard let failure = tally.failure(strict: strict, rejectedByReason: rejectedByReason, mayWriteNothing: mayWriteNothing) else {
            return
        }
        printToStandardError("\(command): \(failure)")
        throw ExitCode.failure
    }
}
