#if canImport(Glibc)
import CFileSystem
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls of a directory swap (docs/errors.md, "How a dataset is replaced"): an atomic
/// exchange of two paths where the kernel and file system have one, and plain renames otherwise.
package enum DirectorySwap {
    /// Exchanges the directories at `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`).
    /// Returns false, changing nothing, where the file system or kernel cannot exchange (the
    /// caller then renames in steps); throws for any other failure.
    package static func exchange(_ a: String, _ b: String) throws(IOError) -> Bool {
        #if os(Linux)
        if retryingOnInterrupt({ sketchprep_rename_exchange(a, b) }) == 0 { return true }
        if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP { return false }
        throw IOError.write(path: b, reason: "cannot exchange it with \(a): \(currentErrorText())")
        #else
        return false
        #endif
    }

    /// Hard-links the regular file `source` as `destination` (same file system); false when it cannot.
    package static func link(_ source: String, as destination: String) -> Bool {
        #if canImport(Glibc)
        retryingOnInterrupt { Glibc.link(source, destination) } == 0
        #else
        retryingOnInterrupt { Darwin.link(source, destination) } == 0
        #endif
    }

    /// Creates the file `path` with `bytes` only if nothing is there: true when created, false when
    /// a file was there already. The bytes are written to a temporary file first and linked into
    /// place, so a concurrent reader never sees the file without its bytes.
    package static func createExclusively(_ path: String, bytes: [UInt8]) throws(IOError) -> Bool {
        let temporary = TemporaryFileName.forWriting(path)
        let descriptor = TemporaryFiles.create(temporary) {
            retryingOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        }
        defer {
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
        }
        guard descriptor >= 0 else { throw IOError.write(path: path, reason: currentErrorText()) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { throw IOError.write(path: path, reason: currentErrorText()) }
        if link(temporary, as: path) { return true }
        if errno == EEXIST { return false }
        throw IOError.write(path: path, reason: currentErrorText())
    }

    /// Renames `source` to `destination` (replacing an empty directory there).
    package static func rename(_ source: String, to destination: String) throws(IOError) {
        #if canImport(Glibc)
        let result = retryingOnInterrupt { Glibc.rename(source, destination) }
        #else
        let result = retryingOnInterrupt { Darwin.rename(source, destination) }
        #endif
        if result != 0 { throw IOError.write(path: destination, reason: "cannot rename \(source) to it: \(currentErrorText())") }
    }
}
