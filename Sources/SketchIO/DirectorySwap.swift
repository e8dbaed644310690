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
