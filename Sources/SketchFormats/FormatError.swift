/// The one error type of SketchFormats: what went wrong reading or writing bytes, and where.
///
/// `kind` says which part of the module raised it; `path` names the file when the message is
/// about one; `reason` says what is wrong, naming the line, record or byte offset where one
/// applies. `description` is the message shown to users.
public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which part of the module raised the error.
    public enum Kind: Sendable, Equatable {
        /// An input path itself: missing, unreadable, not a directory of inputs, too large.
        case input
        /// One NDJSON line that cannot become a record (the reader quarantines it).
        case line
        /// An input stream that stopped early (a read error, zlib failure).
        case source
        /// An output file that cannot be written.
        case write
        /// A `.npy` file that cannot be read.
        case npy
        /// A PNG that cannot be decoded or encoded (libpng's message where it gave one).
        case png
        /// A zip archive (`.npz`) that cannot be read or written.
        case zip
        /// A pickled numpy object array that is refused.
        case pickle
        /// A record Google's `.bin` layout cannot hold (the caller quarantines it).
        case binaryRecord
    }

    /// Which part of the module raised the error.
    public var kind: Kind
    /// The file the error is about, when the message names one in `description`.
    public var path: String?
    /// What is wrong, e.g. `"Not a PNG file"` or `"stroke 3: expected ','"`.
    public var reason: String

    /// Creates an error of `kind`.
    public init(_ kind: Kind, path: String? = nil, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// The message for users: `cannot write PATH: REASON` for write errors, `PATH: REASON` when a
    /// path is set, else the reason.
    public var description: String {
        guard let path else { return reason }
        return kind == .write ? "cannot write \(path): \(reason)" : "\(path): \(reason)"
    }

    /// An input error whose message names the path (`input not found: PATH (reason)`).
    public static func input(_ message: String) -> FormatError { FormatError(.input, reason: message) }
    /// A line that cannot be parsed, with the reason naming the key, stroke or byte offset.
    public static func line(_ reason: String) -> FormatError { FormatError(.line, reason: reason) }
    /// A stream that stopped early.
    static func source(_ reason: String) -> FormatError { FormatError(.source, reason: reason) }
    /// An output `path` that cannot be written.
    public static func write(path: String, reason: String) -> FormatError { FormatError(.write, path: path, reason: reason) }
    /// A `.npy` at `path` that cannot be read.
    package static func npy(path: String, reason: String) -> FormatError { FormatError(.npy, path: path, reason: reason) }
    /// A PNG that cannot be decoded or encoded.
    public static func png(_ reason: String) -> FormatError { FormatError(.png, reason: reason) }
    /// A zip archive at `path` that cannot be read or written.
    package static func zip(path: String, reason: String) -> FormatError { FormatError(.zip, path: path, reason: reason) }
    /// A refused pickle, with the byte offset in the pickle when one applies.
    package static func pickle(_ reason: String) -> FormatError { FormatError(.pickle, reason: reason) }
    /// A record the `.bin` layout cannot hold.
    package static func binaryRecord(_ reason: String) -> FormatError { FormatError(.binaryRecord, reason: reason) }
}
