/// The one error type of SketchIO: why a file, directory or stream could not be opened, read,
/// listed or written, or why a run's paths conflict. `description` is what the user reads: the
/// reason alone, or `PATH: reason`, or for a write `cannot write PATH: reason`.
public struct IOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable {
        /// An input as a whole: a missing path, an unreadable file or directory.
        case input
        /// A read that stopped early (an I/O error, a damaged stream).
        case read
        /// An output file or directory that cannot be written.
        case write
        /// Outputs that would clobber each other or an input (``OutputPathCheck``).
        case outputPaths
        /// Too little free space for a run's temporary files.
        case freeSpace
        /// An output another live run holds the lock of (``OutputLock``).
        case busy
    }

    /// What failed.
    public var kind: Kind
    /// The file, when the error is about one (a write).
    public var path: String?
    /// What is wrong, naming the file and the system's reason where one applies.
    public var reason: String

    /// Creates an error of `kind` with `reason`, about `path` when given.
    public init(_ kind: Kind, _ reason: String, path: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.path = path
    }

    /// An output file that cannot be written.
    public static func write(path: String, reason: String) -> IOError { IOError(.write, reason, path: path) }

    /// An output file that cannot be written because of `error`: the reason says which directory is
    /// not writable when that is the cause (``writeErrorText(_:path:)``).
    package static func write(path: String, error: any Error) -> IOError {
        IOError(.write, writeErrorText(error, path: path), path: path)
    }

    /// `cannot write PATH: reason` for a write, `PATH: reason` when the path is known, else the reason.
    public var description: String {
        guard let path else { return reason }
        return kind == .write ? "cannot write \(path): \(reason)" : "\(path): \(reason)"
    }
}
