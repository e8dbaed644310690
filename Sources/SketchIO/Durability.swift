#if canImport(Glibc)
import CFileSystem
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fsync` for what a run makes durable before it is published: a directory tree (the file
/// system holding it, `syncfs`) before it is swapped in, and a directory's entries after a rename
/// in it, so that after a power loss a swap is either not there or complete.
package enum Durability {
    /// Writes every file of the file system holding `path` to disk (`syncfs` on Linux, `fsync`
    /// of `path` elsewhere).
    package static func syncFileSystem(holding path: String) throws(IOError) {
        try withDescriptor(path) { descriptor in
            #if os(Linux)
            retryingOnInterrupt { sketchprep_syncfs(descriptor) }
            #else
            retryingOnInterrupt { fsync(descriptor) }
            #endif
        }
    }

    /// Writes the directory `path`'s entries to disk (after a rename or an unlink in it).
    package static func syncDirectory(_ path: String) throws(IOError) {
        try withDescriptor(path) { descriptor in retryingOnInterrupt { fsync(descriptor) } }
    }

    /// Writes the open file `descriptor` (`path`, for the message) to disk.
    package static func syncFile(_ descriptor: Int32, path: String) throws(IOError) {
        if retryingOnInterrupt({ fsync(descriptor) }) != 0 && errno != EINVAL && errno != EROFS {
            throw IOError.write(path: path, reason: currentErrorText())
        }
    }

    private static func withDescriptor(_ path: String, _ call: (Int32) -> Int32) throws(IOError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw IOError.write(path: path, reason: currentErrorText()) }
        defer { close(descriptor) }
        // EINVAL/EROFS: a file system (or special file) that has nothing to sync.
        if call(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            throw IOError.write(path: path, reason: currentErrorText())
        }
    }
}
