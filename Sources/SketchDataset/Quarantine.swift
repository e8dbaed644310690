import SketchIO
import SketchFormats
/// Counts of one run, which must reconcile: every record read is either written or rejected.
/// Damaged or unreadable inputs are counted apart, as source errors.
public struct RunTally: Equatable, Codable, Sendable, CustomStringConvertible {
    /// Non-blank input lines seen (records plus rejected lines).
    public var read = 0
    /// Records written to the output.
    public var written = 0
    /// Lines rejected (sent to quarantine).
    public var rejected = 0
    /// Damaged or unreadable inputs (each also in the quarantine; see `RejectedLine.sourceError`).
    public var sourceErrors = 0

    /// Creates a tally.
    public init(read: Int = 0, written: Int = 0, rejected: Int = 0, sourceErrors: Int = 0) {
        self.read = read
        self.written = written
        self.rejected = rejected
        self.sourceErrors = sourceErrors
    }

    /// Counts `line` as read and rejected (or, for a source error, as a source error) and hands
    /// it to `quarantine` (reported and kept verbatim).
    public mutating func reject(_ line: RejectedLine, into quarantine: QuarantineWriter) throws {
        if line.isSourceError {
            sourceErrors += 1
        } else {
            read += 1
            rejected += 1
        }
        try quarantine.add(line)
    }

    /// Whether `read == written + rejected`.
    public var isReconciled: Bool { read == written + rejected }

    /// One-line summary, e.g. `read 7330 = written 7329 + rejected 1` (plus `; source errors N`
    /// when there are any), flagged when it does not add up.
    public var description: String {
        var summary = "read \(read) = written \(written) + rejected \(rejected)"
        if sourceErrors > 0 { summary += "; source errors \(sourceErrors)" }
        return isReconciled ? summary : "\(summary) — MISMATCH: \(read - written - rejected) records unaccounted for"
    }

    /// Whether a run with these counts fails: under `strict` when anything was rejected or any
    /// source was damaged or unreadable; otherwise only when sources failed and nothing at all
    /// could be read.
    public func fails(strict: Bool) -> Bool {
        strict ? rejected > 0 || sourceErrors > 0 : sourceErrors > 0 && read == 0
    }

    enum CodingKeys: String, CodingKey {
        case read, written, rejected
        case sourceErrors = "source_errors"
    }
}

/// Collects rejected lines into a quarantine file (verbatim, one per line, written atomically)
/// and reports each on stderr as `file:line: reason`. Without a path, lines are only reported
/// and counted (for read-only analyses such as `parity`).
///
/// Only the first `maximumMessages` rejections are printed; the rest are summarised by
/// `finish()`, so a badly broken input does not flood the terminal. The quarantine file always
/// receives all of them, and it is created (possibly empty) on `finish()`.
public final class QuarantineWriter {
    /// Where rejected lines go, or nil when they are only reported and counted.
    public let path: String?
    /// How many rejections are printed individually.
    public let maximumMessages: Int
    private let file: AtomicFileWriter?
    /// Rejected lines (records) so far.
    public private(set) var count = 0
    /// Source errors so far (damaged or unreadable inputs; see `RejectedLine.sourceError`).
    public private(set) var sourceErrorCount = 0
    /// Count of rejected records per reason prefix (the reason up to its first `:` or `(`), for
    /// reports; source errors are not records and are not in it.
    public private(set) var countsByReason: [String: Int] = [:]

    /// Opens the quarantine file for writing (none when `path` is nil).
    public init(path: String?, maximumMessages: Int = 20) throws {
        self.path = path
        self.maximumMessages = maximumMessages
        file = try path.map { try AtomicFileWriter(path: $0) }
    }

    /// Records one rejected line. Source errors (damaged or unreadable inputs) are always
    /// reported on stderr; rejected records up to `maximumMessages`.
    public func add(_ rejected: RejectedLine) throws {
        try file?.write(rejected.bytes)
        try file?.write(CollectionOfOne(UInt8(ascii: "\n")))
        if rejected.isSourceError {
            sourceErrorCount += 1
            printToStandardError(TerminalText.escaped("\(rejected)"))
            return
        }
        count += 1
        countsByReason[Self.reasonKind(rejected.reason), default: 0] += 1
        if count <= maximumMessages {
            printToStandardError("rejected " + TerminalText.escaped("\(rejected)"))
        }
    }

    /// Copies lines already quarantined (an earlier stage's file, complete lines with their
    /// newlines) into the file, without counting or reporting them again.
    public func addVerbatim(_ lines: [UInt8]) throws {
        try file?.write(lines)
    }

    /// Commits the quarantine file and prints how many entries it holds (if any).
    public func finish() throws {
        try file?.commit()
        if count > maximumMessages {
            printToStandardError("… \(count - maximumMessages) more rejected \(Self.lines(count - maximumMessages)) not shown")
        }
        if count + sourceErrorCount > 0, let path {
            let errors = sourceErrorCount == 0 ? "" : " and \(sourceErrorCount) source error\(sourceErrorCount == 1 ? "" : "s")"
            printToStandardError("\(count) rejected \(Self.lines(count))\(errors) written to \(path)")
        }
    }

    /// `line` or `lines`, to go with `count`.
    private static func lines(_ count: Int) -> String { count == 1 ? "line" : "lines" }

    /// The kind of a reason, for grouping: the text before the first `(`, with each run of digits
    /// replaced by `N` (`stroke 2: x has 10 values but y has 9` → `stroke N: x has N values but y has N`).
    static func reasonKind(_ reason: String) -> String {
        let head = reason.split(separator: "(", maxSplits: 1).first.map(String.init) ?? reason
        var kind = ""
        var lastWasDigit = false
        for character in head.trimmingSpaces() {
            if character.isASCII && character.isNumber {
                if !lastWasDigit { kind.append("N") }
                lastWasDigit = true
            } else {
                kind.append(character)
                lastWasDigit = false
            }
        }
        return kind
    }
}

private extension String {
    func trimmingSpaces() -> Substring {
        var text = self[...]
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
