import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO

/// `--strict`, shared by the data commands: whether rejected records and damaged or unreadable
/// sources make the run fail. Without it a run exits 0 whatever it quarantined, as long as it
/// wrote a record (`RecordCounts.verdict(strict:rejectedByReason:mayWriteNothing:)`, docs/limits.md).
struct StrictOption: ParsableArguments {
    @Flag(
        help:
            "Exit with status 1 when any record was rejected or any source was damaged or unreadable (without it: only when no record was written)."
    )
    var strict = false

    /// Prints the reason and throws (exit status 1) when `tally`'s verdict under this option is
    /// not success (``RunVerdict``: counts that do not reconcile, or
    /// `RecordCounts.failure(strict:rejectedByReason:mayWriteNothing:)`); `rejectedByReason`
    /// names the commonest reason when every record was rejected, and `mayWriteNothing` marks one
    /// part of a larger run.
    func check(_ tally: RecordCounts, command: String, rejectedByReason: [String: Int] = [:], mayWriteNothing: Bool = false) throws {
        switch tally.verdict(strict: strict, rejectedByReason: rejectedByReason, mayWriteNothing: mayWriteNothing) {
        case .succeeded: return
        case .unreconciled(let reason), .failed(let reason):
            printToStandardError("\(command): \(reason)")
            throw ExitCode.failure
        }
    }
}
