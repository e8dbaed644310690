import SketchFormats
import SketchIO

/// Collects rejected lines into a quarantine file (verbatim, one per line, written atomically)
/// and reports each as a live message (``LiveMessages``) as `file:line: reason`. Without a path, lines are only reported
/// and counted (for read-only analyses such as `parity`).
///
/// Only the first `maximumMessages` rejections are printed; the rest are summarised by
/// `finish()`, so a badly broken input does not flood the terminal. The quarantine file always
/// receives all of them. It is created (atomically, under a temporary name until `finish()`) on
/// the first entry, so a run that rejects nothing leaves no file; a dataset's quarantine, which
/// its manifest names, is written even when empty (`writesWhenEmpty`).
public final class QuarantineWriter {
    /// Where rejected lines go, or nil when they are only reported and counted.
    public let path: String?
    /// How many rejections are printed individually.
    public let maximumMessages: Int
    /// Whether `finish()` writes the file when nothing was quarantined.
    public let writesWhenEmpty: Bool
    private var file: AtomicFileWriter?
    /// Rejected lines (records) so far.
    public private(set) var count = 0
    /// Source errors so far (damaged or unreadable inputs; see `RejectedLine.sourceError`).
    public private(set) var sourceErrorCount = 0
    /// Count of rejected records per reason prefix (the reason up to its first `:` or `(`), for
    /// reports; source errors are not records and are not in it.
    public private(set) var countsByReason: [String: Int] = [:]

    /// A writer to `path` (none when nil); the file is opened on the first entry.
    public init(path: String?, maximumMessages: Int = 20, writesWhenEmpty: Bool = false) {
        self.path = path
        self.maximumMessages = maximumMessages
        self.writesWhenEmpty = writesWhenEmpty
    }

    /// The open quarantine file, opened now if this is its first entry (nil without a path).
    private func openFile() throws -> AtomicFileWriter? {
        if file == nil, let path { file = try AtomicFileWriter(path: path) }
        return file
    }

    /// Records one rejected line. Source errors (damaged or unreadable inputs) are always
    /// reported as they come; rejected records up to `maximumMessages`.
    public func add(_ rejected: RejectedLine) throws {
        let file = try openFile()
        try file?.write(rejected.bytes)
        try file?.write(CollectionOfOne(UInt8(ascii: "\n")))
        tally(rejected)
    }

    /// Counts and reports one rejected line that the caller writes elsewhere (a chunk's own
    /// quarantine file, copied in with ``addVerbatim(_:)`` in chunk order).
    package func tally(_ rejected: RejectedLine) {
        if rejected.isSourceError {
            sourceErrorCount += 1
            LiveMessages.emit(TerminalText.escaped("\(rejected)"))
            return
        }
        count += 1
        countsByReason[Self.reasonKind(rejected.reason), default: 0] += 1
        if count <= maximumMessages {
            LiveMessages.emit("rejected " + TerminalText.escaped("\(rejected)"))
        }
    }

    /// Copies lines already quarantined (an earlier stage's file, complete lines with their
    /// newlines) into the file, without counting or reporting them again.
    public func addVerbatim(_ lines: [UInt8]) throws {
        guard !lines.isEmpty else { return }
        try openFile()?.write(lines)
    }

    /// Commits the quarantine file (if it has an entry, or `writesWhenEmpty`) and prints how many
    /// entries it holds (if any).
    public func finish() throws {
        if writesWhenEmpty { _ = try openFile() }
        try file?.commit()
        if count > maximumMessages {
            LiveMessages.emit("… \(count - maximumMessages) more rejected \(Self.lines(count - maximumMessages)) not shown")
        }
        if count + sourceErrorCount > 0, let path {
            let errors = sourceErrorCount == 0 ? "" : " and \(sourceErrorCount) source error\(sourceErrorCount == 1 ? "" : "s")"
            LiveMessages.emit("\(count) rejected \(Self.lines(count))\(errors) written to \(path)")
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

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self[...]
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
