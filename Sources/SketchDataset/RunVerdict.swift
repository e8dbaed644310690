/// How a finished run ends, the one rule every data command applies to its counts: the counts
/// must reconcile (read = written + filtered + rejected), and then
/// ``RecordCounts/failure(strict:rejectedByReason:mayWriteNothing:)`` decides, with `--strict`,
/// whether the run fails. The CLI prints the reason and sets the exit status; it decides nothing.
package enum RunVerdict: Equatable, Sendable {
    /// The run succeeded: exit status 0.
    case succeeded
    /// The counts do not add up (a bug: a record was lost or counted twice); the reason says how.
    case unreconciled(String)
    /// The run failed by the `--strict` rule or because it wrote nothing; the reason says why.
    case failed(String)
}

extension RecordCounts {
    /// The verdict on a run with these counts (``RunVerdict``); the arguments are those of
    /// ``failure(strict:rejectedByReason:mayWriteNothing:)``.
    package func verdict(strict: Bool, rejectedByReason: [String: Int] = [:], mayWriteNothing: Bool = false) -> RunVerdict {
        guard isReconciled else { return .unreconciled("record counts do not reconcile: \(self)") }
        return failure(strict: strict, rejectedByReason: rejectedByReason, mayWriteNothing: mayWriteNothing).map(RunVerdict.failed)
            ?? .succeeded
    }
}
