import Foundation
import SystemPackage

#if canImport(Glibc)
import CFileSystem
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every system call of the project that touches the file system, each behind a typed wrapper
/// (as swift-system's `Syscalls.swift`): the one place where a path meets the kernel.
///
/// One EINTR rule: a call that a signal interrupted before it did anything is made again
/// (``valueOrErrno(_:)``); `close` is never retried. One error rule: a failed call throws the
/// system's `Errno`, and a caller that reports it turns it into an `IOError` with
/// ``IOError/init(_:path:errno:prefix:)`` or ``Errno/text``. Nothing else in `Sources/` calls
/// `stat`, `open`, `rename`, `unlink`, `mkdir`, `link`, `fsync`, `flock`, `access` or `opendir`
/// itself; reads and writes of bytes go through swift-system's `FileDescriptor`, whose calls
/// follow the same EINTR rule.
package enum FileSystem {
    /// What `stat` says about a file.
    package struct Status: Sendable {
        /// What kind of file it is.
        package enum Kind: Sendable, Equatable {
            case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other
        }

        /// What kind of file it is.
        package var kind: Kind
        /// Its size in bytes (for a regular file).
        package var size: Int64
        /// Its identity on its file system.
        package var identity: FileIdentity

        init(_ status: stat) {
            kind =
                switch status.st_mode & S_IFMT {
                case S_IFREG: .regular
                case S_IFDIR: .directory
                case S_IFLNK: .symbolicLink
                case S_IFIFO: .fifo
                case S_IFCHR: .characterDevice
                case S_IFBLK: .blockDevice
                case S_IFSOCK: .socket
                default: .other
                }
            size = Int64(status.st_size)
            identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }

        /// Whether it is a regular file.
        package var isRegular: Bool { kind == .regular }
        /// Whether it is a directory.
        package var isDirectory: Bool { kind == .directory }
    }

    /// The EINTR rule: runs `call` until a signal did not interrupt it; its result, or the errno
    /// of a failure (a result of -1).
    @inline(__always)
    static func valueOrErrno<Value: FixedWidthInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value != -1 { return .success(value) }
            let code = errno
            if code != EINTR { return .failure(Errno(rawValue: code)) }
        }
    }

    /// `call`'s result, or its errno thrown.
    @inline(__always)
    static func check<Value: FixedWidthInteger>(_ call: () -> Value) throws(Errno) -> Value {
        try valueOrErrno(call).get()
    }

    /// What `path` names, following symbolic links (`stat`).
    package static func status(_ path: String) throws(Errno) -> Status {
        var status = stat()
        _ = try check { stat(path, &status) }
        return Status(status)
    }

    /// What `path` names, not following a symbolic link at its end (`lstat`).
    package static func linkStatus(_ path: String) throws(Errno) -> Status {
        var status = stat()
        _ = try check { lstat(path, &status) }
        return Status(status)
    }

    /// What the open `descriptor` refers to (`fstat`).
    package static func status(descriptor: Int32) throws(Errno) -> Status {
        var status = stat()
        _ = try check { fstat(descriptor, &status) }
        return Status(status)
    }

    /// What the path of raw bytes `path` (a name that is not UTF-8) names, following symbolic links.
    package static func status(rawPath path: [UInt8]) throws(Errno) -> Status {
        var status = stat()
        let terminated = path + [0]
        _ = try check {
            terminated.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) }
            }
        }
        return Status(status)
    }

    /// `path` made absolute with every symbolic link resolved (`realpath`).
    package static func resolvedPath(_ path: String) throws(Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw Errno(rawValue: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the symbolic link `path` points to (`readlink`); nil when it is not a link.
    package static func symbolicLinkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    /// The process's working directory (`getcwd`), nil when it cannot be named.
    package static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether something is at `path`, a symbolic link counting as itself (`lstat`).
    package static func linkExists(_ path: String) -> Bool {
        (try? linkStatus(path)) != nil
    }

    /// Whether nothing is at `path` (`access(F_OK)` fails with `ENOENT`; any other failure, such as
    /// a directory on the way that cannot be searched, is not "missing").
    package static func isMissing(_ path: String) -> Bool {
        if case .failure(.noSuchFileOrDirectory) = Result(catching: { () throws(Errno) in try checkAccess(path, F_OK) }) { return true }
        return false
    }

    /// Whether `path` exists (following symbolic links).
    package static func exists(_ path: String) -> Bool {
        (try? status(path)) != nil
    }

    /// Whether this process may use `path` as `mode` says (`R_OK`, `W_OK`, `X_OK`, `F_OK`: exists),
    /// as `access` decides.
    package static func checkAccess(_ path: String, _ mode: Int32) throws(Errno) {
        _ = try check { access(path, mode) }
    }

    /// Removes the file (not directory) `path` (`unlink`).
    package static func remove(_ path: String) throws(Errno) {
        _ = try check { unlink(path) }
    }

    /// Removes `path` and, for a directory, everything in it; nothing when it is not there.
    package static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Renames `source` to `destination`, replacing a file or empty directory there (`rename`).
    package static func rename(_ source: String, to destination: String) throws(Errno) {
        #if canImport(Glibc)
        _ = try check { Glibc.rename(source, destination) }
        #else
        _ = try check { Darwin.rename(source, destination) }
        #endif
    }

    /// Exchanges `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`); `ENOSYS` where the
    /// system has no such call.
    package static func exchange(_ a: String, _ b: String) throws(Errno) {
        #if os(Linux)
        _ = try check { sketchprep_rename_exchange(a, b) }
        #else
        throw Errno(rawValue: ENOSYS)
        #endif
    }

    /// Hard-links the file `source` as `destination` (`link`).
    package static func link(_ source: String, as destination: String) throws(Errno) {
        #if canImport(Glibc)
        _ = try check { Glibc.link(source, destination) }
        #else
        _ = try check { Darwin.link(source, destination) }
        #endif
    }

    /// Creates the directory `path` with `permissions` (`mkdir`); `EEXIST` when something is there.
    package static func makeDirectory(_ path: String, permissions: mode_t) throws(Errno) {
        _ = try check { mkdir(path, permissions) }
    }

    /// Creates the directory `path` and any missing parents (nothing when it exists).
    package static func makeDirectories(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Opens `path` with `flags` (`O_…`, `permissions` for a file it creates) and returns the
    /// descriptor (`open`).
    package static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> Int32 {
        #if canImport(Glibc)
        try check { Glibc.open(path, flags, permissions) }
        #else
        try check { Darwin.open(path, flags, permissions) }
        #endif
    }

    /// Closes `descriptor` (never retried: the descriptor is gone whatever `close` returns).
    package static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Writes the open file `descriptor` to disk (`fsync`).
    package static func sync(_ descriptor: Int32) throws(Errno) {
        _ = try check { fsync(descriptor) }
    }

    /// Starts writing bytes `[offset, offset + count)` of the open file `descriptor` to disk
    /// without waiting for them (`sync_file_range` with `SYNC_FILE_RANGE_WRITE` on Linux; nothing
    /// elsewhere): a hint, so that a later ``sync(_:)`` has less left to write.
    package static func startWriteback(_ descriptor: Int32, offset: Int, count: Int) throws(Errno) {
        #if os(Linux)
        _ = try check { sketchprep_start_writeback(descriptor, Int64(offset), Int64(count)) }
        #endif
    }

    /// Writes every file of the file system holding `descriptor` to disk (`syncfs` on Linux,
    /// `fsync` elsewhere).
    package static func syncFileSystem(_ descriptor: Int32) throws(Errno) {
        #if os(Linux)
        _ = try check { sketchprep_syncfs(descriptor) }
        #else
        _ = try check { fsync(descriptor) }
        #endif
    }

    /// Cuts the open file `descriptor` to `size` bytes (`ftruncate`).
    package static func truncate(_ descriptor: Int32, to size: Int64) throws(Errno) {
        _ = try check { ftruncate(descriptor, off_t(size)) }
    }

    /// Takes the `flock` lock `operation` (`LOCK_SH`/`LOCK_EX`, with `LOCK_NB`) on `descriptor`.
    package static func lock(_ descriptor: Int32, _ operation: Int32) throws(Errno) {
        _ = try check { flock(descriptor, operation) }
    }

    /// The names in the directory `path` (not `.` and `..`), as raw bytes, in the order the
    /// system lists them (`opendir`/`readdir`).
    package static func entryNameBytes(of path: String) throws(Errno) -> [[UInt8]] {
        guard let stream = opendir(path) else { throw Errno(rawValue: errno) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let item = readdir(stream) {
            let bytes = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == [UInt8(ascii: ".")] || bytes == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(bytes)
        }
        return names
    }

    /// The names in the directory `path` (not `.` and `..`), in the order the system lists them;
    /// empty when it cannot be listed.
    package static func entryNames(of path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }
}

extension Errno {
    /// The `strerror` text of this errno, as every message quotes it.
    package var text: String { String(cString: strerror(rawValue)) }
}

extension IOError {
    /// An error of `kind` about `path` whose reason is `errno`'s text, after `prefix` when given.
    package init(_ kind: Kind, path: String, errno: Errno, prefix: String = "") {
        self.init(kind, prefix + errno.text, path: path)
    }
}
