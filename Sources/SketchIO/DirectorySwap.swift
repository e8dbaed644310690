import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The steps of a directory swap (docs/errors.md, "How a dataset is replaced"): an atomic
/// exchange of two paths where the kernel and file system have one, and plain renames otherwise.
package enum DirectorySwap {
    /// Exchanges the directories at `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`).
    /// Returns false, changing nothing, where the file system or kernel cannot exchange (the
    /// caller then renames in steps); throws for any other failure.
    package static func exchange(_ a: String, _ b: String) throws(IOError) -> Bool {
        #if os(Linux)
        do {
            try FileSystem.exchange(a, b)
            return true
        } catch {
            if error == .invalidArgument || error == .noFunction || error == .notSupported { return false }
            throw IOError(.write, path: b, errno: error, prefix: "cannot exchange it with \(a): ")
        }
        #else
        return false
        #endif
    }

    /// Hard-links the regular file `source` as `destination` (same file system); false when it cannot.
    package static func link(_ source: String, as destination: String) -> Bool {
        (try? FileSystem.link(source, as: destination)) != nil
    }

    /// Creates the file `path` with `bytes` only if nothing is there: true when created, false when
    /// a file was there already. The bytes are written to a temporary file first and linked into
    /// place, so a concurrent reader never sees the file without its bytes.
    package static func createExclusively(_ path: String, bytes: [UInt8]) throws(IOError) -> Bool {
        let temporary = TemporaryFileName.forWriting(path)
        let opened = TemporaryFiles.create(temporary) {
            Result { () throws(Errno) in
                try FileSystem.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions: 0o644)
            }
        }
        defer {
            try? FileSystem.remove(temporary)
            TemporaryFiles.unregister(temporary)
        }
        let descriptor: Int32
        switch opened {
        case .success(let value): descriptor = value
        case .failure(let error): throw IOError(.write, path: path, errno: error)
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeErrno = Errno(rawValue: errno)
        FileSystem.close(descriptor)
        guard written == bytes.count else { throw IOError(.write, path: path, errno: writeErrno) }
        do {
            try FileSystem.link(temporary, as: path)
            return true
        } catch {
            if error == .fileExists { return false }
            throw IOError(.write, path: path, errno: error)
        }
    }

    /// Renames `source` to `destination` (replacing an empty directory there).
    package static func rename(_ source: String, to destination: String) throws(IOError) {
        do {
            try FileSystem.rename(source, to: destination)
        } catch {
            throw IOError(.write, path: destination, errno: error, prefix: "cannot rename \(source) to it: ")
        }
    }
}
