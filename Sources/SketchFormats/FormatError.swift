/// The one error type of SketchFormats: why bytes could not be read or written in a format, with
/// the file when one is known. `description` is what the user reads: the reason alone, or
/// `PATH: reason`. (Files that cannot be opened, read or written are SketchIO's `IOError`.)
public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable {
        /// An input as a whole: a missing path, an unreadable directory, a file of no known format.
        case input
        /// One record (an NDJSON line) that cannot become a `SketchRecord`.
        case record
        /// A `.npy` file that cannot be read.
        case npy
        /// A PNG that cannot be decoded or encoded (libpng's message where it gave one).
        case png
        /// A zip archive (`.npz`) that cannot be read or written.
        case zip
        /// A tar archive (a WebDataset shard) that cannot be written (libarchive's message).
        case tar
        /// A pickled numpy object array outside the subset numpy writes.
        case pickle
        /// A record Google's `.bin` layout cannot hold.
        case binaryLayout
        /// A read of one or more inputs none of which could be opened (each is a source error).
        case noInputReadable
    }

    /// What failed.
    public var kind: Kind
    /// The file, when the error is about one (a write, a `.npy`, a zip archive).
    public var path: String?
    /// What is wrong, naming the key, offset or line at fault where one applies.
    public var reason: String

    /// Creates an error of `kind` with `reason`, about `path` when given.
    public init(_ kind: Kind, _ reason: String, path: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.path = path
    }

    /// A `.npy` file that cannot be read.
    public static func npy(path: String, reason: String) -> FormatError { FormatError(.npy, reason, path: path) }
    /// A zip archive that cannot be read or written.
    public static func zip(path: String, reason: String) -> FormatError { FormatError(.zip, reason, path: path) }

    /// `PATH: reason` when the path is known, else the reason.
    public var description: String {
        path.map { "\($0): \(reason)" } ?? reason
    }
}
