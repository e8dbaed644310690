/// Where a record came from: a file (or `-` for stdin) and a 1-based line number.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// File path as given by the user, or `-` for standard input.
    public var file: String
    /// 1-based line (or record) number within `file`.
    public var line: Int

    /// Creates a location.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`, the form used in every diagnostic.
    public var description: String { "\(file):\(line)" }
}
