/// An input line that could not be used, with where it came from and why.
public struct RejectedLine: Equatable, Sendable, CustomStringConvertible {
    /// File and 1-based line number.
    public var location: SourceLocation
    /// What was wrong, e.g. `stroke 2: x has 10 values but y has 9`.
    public var reason: String
    /// The line exactly as read, without its newline (what the quarantine file receives).
    public var bytes: [UInt8]

    /// Creates a rejection record.
    public init(location: SourceLocation, reason: String, bytes: [UInt8]) {
        self.location = location
        self.reason = reason
        self.bytes = bytes
    }

    /// A whole input file that could not be used (e.g. an undecodable PNG): located at `path:0`,
    /// with the path itself as the quarantined bytes, so the quarantine file lists one path a line.
    public static func file(_ path: String, reason: String) -> RejectedLine {
        RejectedLine(location: SourceLocation(file: path, line: 0), reason: reason, bytes: Array(path.utf8))
    }

    /// `file:line: reason`, the diagnostic form.
    public var description: String { "\(location): \(reason)" }
}
