/// An input line that could not be used, with where it came from and why.
public struct RejectedLine: Equatable, Sendable, CustomStringConvertible {
    /// File and 1-based line number.
    public var location: SourceLocation
    /// What was wrong, e.g. `stroke 2: x has 10 values but y has 9`.
    public var reason: String
    /// The line exactly as read, without its newline (what the quarantine file receives).
    public var bytes: [UInt8]
    /// Whether this is a damaged or unreadable input rather than a record: counted apart from
    /// records (`source_errors`), so `read = written + filtered + rejected` stays about records.
    public var isSourceError = false

    /// Creates a rejection record.
    public init(location: SourceLocation, reason: String, bytes: [UInt8]) {
        self.location = location
        self.reason = reason
        self.bytes = bytes
    }

    /// A damaged or unreadable stretch of input `path` (a gzip member with a bad CRC, a
    /// truncated tail, a read error) found at stored byte `byteOffset`: located at `path:0`,
    /// its reason `source error at byte N: …`, and quarantined as one JSON line
    /// `{"source_error": path, "byte_offset": N, "reason": …}` so it cannot pass for a record.
    public static func sourceError(_ path: String, byteOffset: Int, reason: String) -> RejectedLine {
        var bytes = Array(#"{"source_error":"#.utf8)
        SimplifiedNDJSONWriter.appendString(path, to: &bytes)
        bytes += Array(#","byte_offset":\#(byteOffset),"reason":"#.utf8)
        SimplifiedNDJSONWriter.appendString(reason, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        var line = RejectedLine(
            location: SourceLocation(file: path, line: 0),
            reason: "source error at byte \(byteOffset): \(reason)", bytes: bytes)
        line.isSourceError = true
        return line
    }

    /// A whole input file that could not be used (e.g. an undecodable PNG): located at `path:0`,
    /// with the path itself as the quarantined bytes, so the quarantine file lists one path a line.
    public static func file(_ path: String, reason: String) -> RejectedLine {
        RejectedLine(location: SourceLocation(file: path, line: 0), reason: reason, bytes: Array(path.utf8))
    }

    /// `file:line: reason`, the diagnostic form.
    public var description: String { "\(location): \(reason)" }
}
