#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Free space on the file system of a directory, checked before a run writes its sorted runs.
package enum FreeSpace {
    /// Throws `IOError` (`freeSpace`) when fewer than `forInputBytes` (or 256 MiB when unknown) are free
    /// under `directory`.
    package static func require(in directory: String, forInputBytes bytes: Int?) throws(IOError) {
        var status = statvfs()
        guard statvfs(directory, &status) == 0 else { return }
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        let needed = bytes ?? (256 << 20)
        guard free >= needed else {
            throw IOError(
                .freeSpace,
                "only \(free >> 20) MiB free under \(directory); the sorted runs need about \(needed >> 20) MiB"
                    + " — free space or pass --tmp-dir DIR on a larger file system")
        }
    }
}
