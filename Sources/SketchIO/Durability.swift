import SystemPackage

#if canImport(Glibc)
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
        try withDescriptor(path) { descriptor throws(Errno) in try FileSystem.syncFileSystem(descriptor) }
    }

    /// Writes the directory `path`'s entries to disk (after a rename or an unlink in it).
    package static func syncDirectory(_ path: String) throws(IOError) {
        try withDescriptor(path) { descriptor throws(Errno) in try FileSystem.sync(descriptor) }
    }

    /// Writes the open file `descriptor` (`path`, for the message) to disk.
    package static func syncFile(_ descriptor: Int32, path: String) throws(IOError) {
        try reporting(path) { () throws(Errno) in try FileSystem.sync(descriptor) }
    }

    private static func withDescriptor(_ path: String, _ call: (Int32) throws(Errno) -> Void) throws(IOError) {
        let descriptor: Int32
        do {
            descriptor = try FileSystem.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } catch {
            throw IOError(.write, path: path, errno: error)
        }
        defer { FileSystem.close(descriptor) }
        try reporting(path) { () throws(Errno) in try call(descriptor) }
    }

    /// Runs a sync; EINVAL/EROFS (a file system or special file that has nothing to sync) is no failure.
    private static func reporting(_ path: String, _ call: () throws(Errno) -> Void) throws(IOError) {
        do {
            try call()
        } catch {
            if error == .invalidArgument || error == .readOnlyFileSystem { return }
            throw IOError(.write, path: path, errno: error)
        }
    }
}
