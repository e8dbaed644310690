import SketchIO

/// What a directory walk found: the files to read, the entries that should have been read but
/// cannot be (rejected sources, to be counted and quarantined), and special files left alone.
public struct DirectoryListing: Sendable, Equatable {
    /// Regular files (or symbolic links to regular files) whose names were accepted, sorted byte-wise by path.
    public var files: [String] = []
    /// Entries that cannot be read: dangling symbolic links, symbolic link loops, unreadable
    /// files or directories, names that are not UTF-8. Each names the path (non-UTF-8 bytes as
    /// `\xNN`) and the reason.
    public var rejected: [RejectedLine] = []
    /// Device files, FIFOs and sockets with accepted names: skipped (reading them could block or
    /// never end), each with its warning for the caller to show.
    public var skipped: [String] = []

    /// An empty listing.
    public init() {}

    /// Appends `other`'s entries (files stay sorted only within each listing).
    public mutating func append(_ other: DirectoryListing) {
        files += other.files
        rejected += other.rejected
        skipped += other.skipped
    }
}

extension DirectoryWalk {
    /// Lists the files of `directory` whose names satisfy `accepts` — only its own entries, or
    /// every level below it when `recursive` — sorted byte-wise by path; each directory's entries
    /// classified on up to `threads` threads (``DirectoryWalk/entries(of:threads:)``).
    package static func list(
        _ directory: String, recursive: Bool, threads: Int = 1,
        accepts: (String) -> Bool
    ) throws(IOError) -> DirectoryListing {
        var listing = DirectoryListing()
        var visited = Set<FileIdentity>()
        if let identity = FileIdentity(path: directory) { visited.insert(identity) }
        try walk(directory, recursive: recursive, threads: threads, accepts: accepts, visited: &visited, into: &listing)
        listing.files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return listing
    }

    private static func walk(
        _ directory: String, recursive: Bool, threads: Int, accepts: (String) -> Bool,
        visited: inout Set<FileIdentity>, into listing: inout DirectoryListing
    ) throws(IOError) {
        for entry in try entries(of: directory, threads: threads) {
            switch entry {
            case let .file(path, name) where accepts(name):
                listing.files.append(path)
            case let .directory(path, _) where recursive:
                guard let identity = FileIdentity(path: path), visited.insert(identity).inserted else { continue }
                do {
                    try walk(path, recursive: true, threads: threads, accepts: accepts, visited: &visited, into: &listing)
                } catch {
                    listing.rejected.append(.file(path, reason: error.description))
                }
            case let .special(path, name, kind) where accepts(name):
                listing.skipped.append("skipped \(path): \(kind), not a regular file")
            case let .unusable(path, name, reason) where accepts(name):
                listing.rejected.append(.file(path, reason: reason))
            case let .undecodableName(path, name, isDirectory) where accepts(name) || (recursive && isDirectory):
                listing.rejected.append(.file(path, reason: undecodableNameReason))
            default:
                continue
            }
        }
    }
}
