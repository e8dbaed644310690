import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists directories without hanging or trapping on hostile entries: the one directory walk of
/// the project (Quick, Draw! directories, image directories, TU-Berlin class directories).
///
/// Entries are classified with `lstat`/`stat`, never opened, so a FIFO named `x.png` or a
/// `*.png` link to `/dev/zero` cannot block or flood the walk. Hidden names (leading `.`) are
/// ignored. A recursive walk follows symbolic links to directories but visits each directory
/// (device, inode) once, so link cycles end.
package enum DirectoryWalk {
    /// One directory entry after classification.
    package enum Entry: Sendable, Equatable {
        /// A regular file (possibly through a symbolic link).
        case file(path: String, name: String)
        /// A directory (possibly through a symbolic link).
        case directory(path: String, name: String)
        /// A device, FIFO or socket: the path and what it is.
        case special(path: String, name: String, kind: String)
        /// Something that cannot be used (dangling link, link loop, unreadable): the path and why.
        case unusable(path: String, name: String, reason: String)
        /// A name that is not valid UTF-8: the path with the name's bytes escaped as `\xNN`, the
        /// name decoded lossily, and whether it is a directory.
        case undecodableName(path: String, name: String, isDirectory: Bool)

        /// The entry's name (lossily decoded when it is not UTF-8).
        package var name: String {
            switch self {
            case let .file(_, name), let .directory(_, name), let .special(_, name, _), let .unusable(_, name, _),
                let .undecodableName(_, name, _):
                name
            }
        }
    }

    /// The rejection reason of an entry whose name is not valid UTF-8.
    package static let undecodableNameReason = "file name is \(PathBytes.notUTF8)"

    /// The entries of `directory` (hidden names excluded), sorted byte-wise by name; throws
    /// `IOError` naming the directory when it cannot be listed. With `threads` > 1, a directory
    /// of at least ``parallelEntries`` entries has them classified (an `lstat`, for a link a
    /// `stat`, for a file an `access`: the listing's cost) on up to that many threads; the entries
    /// are the same for any count.
    package static func entries(of directory: String, threads: Int = 1) throws(IOError) -> [Entry] {
        let names: [[UInt8]]
        do {
            names = try FileSystem.entryNameBytes(of: directory)
        } catch {
            throw IOError(.input, "cannot list directory \(directory): \(error.text) (check that it exists and is readable)")
        }
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        let visible = names.filter { $0.first != UInt8(ascii: ".") }.sorted { $0.lexicographicallyPrecedes($1) }
        guard threads > 1 && visible.count >= parallelEntries else {
            return visible.map { classify(base: base, nameBytes: $0) }
        }
        let classified = LockedValue([Entry?](repeating: nil, count: visible.count))
        ConcurrentIndices.forEach(visible.count, threads: threads) { index in
            let entry = classify(base: base, nameBytes: visible[index])
            classified.withLock { $0[index] = entry }
        }
        return classified.withLock { $0.compactMap { $0 } }
    }

    /// Entries a directory needs before ``entries(of:threads:)`` classifies them on threads.
    package static let parallelEntries = 64

    /// Classifies one entry by `lstat` and, for a symbolic link, `stat` of its target.
    static func classify(base: String, nameBytes: [UInt8]) -> Entry {
        guard let name = PathBytes.decoded(nameBytes) else {
            let lossy = String(decoding: nameBytes, as: UTF8.self)
            let escaped = PathBytes.escaped(nameBytes)
            let rawPath = Array(base.utf8) + [UInt8(ascii: "/")] + nameBytes
            let isDirectory = (try? FileSystem.status(rawPath: rawPath))?.isDirectory ?? false
            return .undecodableName(path: "\(base)/\(escaped)", name: lossy, isDirectory: isDirectory)
        }
        let path = "\(base)/\(name)"
        var status: FileSystem.Status
        do {
            status = try FileSystem.linkStatus(path)
        } catch {
            return .unusable(path: path, name: name, reason: "cannot inspect: \(error.text)")
        }
        if status.kind == .symbolicLink {
            do {
                status = try FileSystem.status(path)
            } catch {
                let reason =
                    switch error {
                    case .noSuchFileOrDirectory: "dangling symbolic link (its target does not exist)"
                    case .tooManySymbolicLinkLevels: "symbolic link loop"
                    default: "cannot follow symbolic link: \(error.text)"
                    }
                return .unusable(path: path, name: name, reason: reason)
            }
        }
        switch status.kind {
        case .regular:
            do {
                try FileSystem.checkAccess(path, R_OK)
            } catch {
                return .unusable(path: path, name: name, reason: "cannot read: \(error.text)")
            }
            return .file(path: path, name: name)
        case .directory: return .directory(path: path, name: name)
        case .fifo: return .special(path: path, name: name, kind: "FIFO")
        case .characterDevice: return .special(path: path, name: name, kind: "character device")
        case .blockDevice: return .special(path: path, name: name, kind: "block device")
        case .socket: return .special(path: path, name: name, kind: "socket")
        case .symbolicLink, .other: return .special(path: path, name: name, kind: "special file")
        }
    }
}

/// A file's identity on its file system (device and inode), after following symbolic links.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    /// The identity `inode` on `device`.
    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of what `path` names, or nil when it cannot be inspected.
    package init?(path: String) {
        guard let status = try? FileSystem.status(path) else { return nil }
        self = status.identity
    }

    /// The identity of what the open `descriptor` refers to, or nil when it is not open.
    package init?(descriptor: Int32) {
        guard let status = try? FileSystem.status(descriptor: descriptor) else { return nil }
        self = status.identity
    }
}
