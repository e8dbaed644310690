import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files and directories this process has on disk right now (atomic writes before
/// their rename, shard files not yet named, sorted runs, spill directories), so that an
/// interrupted run can remove them. Libraries register and unregister; only the command-line tool
/// decides what happens on a signal (it calls ``removeAllForExit()``).
package enum TemporaryFiles {
    private static let paths = LockedValue<Set<String>>([])
    private static let exiting = LockedValue(false)

    /// Notes `path` (a file or a directory) as temporary. Call before it can exist (before the
    /// rename that puts it in place); to create it, use ``create(_:_:)``.
    package static func register(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    /// Registers `path` and runs `make` (which creates it) under the registry's lock, so a signal's
    /// clean-up sees either no file and no registration, or both: a temporary file can never be
    /// created just after the clean-up ran. `make` must not call back into `TemporaryFiles`.
    package static func create<Result>(_ path: String, _ make: () throws -> Result) rethrows -> Result {
        try paths.withLock { registered in
            registered.insert(path)
            do {
                return try make()
            } catch {
                registered.remove(path)
                throw error
            }
        }
    }

    /// Runs `body` (a directory swap: renames that must not interleave with a signal's clean-up)
    /// under the registry's lock: the clean-up removes the registered paths either before `body`
    /// or after it, never in the middle. `body` must not call back into `TemporaryFiles`.
    package static func whileCleanUpWaits<Result>(_ body: () throws -> Result) rethrows -> Result {
        try paths.withLock { _ in try body() }
    }

    /// Forgets `path` (renamed into place or removed).
    package static func unregister(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    /// Removes the temporary directory `path` with everything in it, and forgets it. With
    /// `threads` > 1 its entries are removed on that many threads first: freeing a large file's
    /// page-cache pages is the kernel's work per file (a TU-Berlin run's 420 MB of sorted runs
    /// took 72 ms on one thread), which threads share.
    package static func removeDirectory(_ path: String, threads: Int = 1) {
        if threads > 1 {
            let entries = FileSystem.entryNames(of: path)
            ConcurrentIndices.forEach(entries.count, threads: threads) { FileSystem.removeTree("\(path)/\(entries[$0])") }
        }
        FileSystem.removeTree(path)
        unregister(path)
    }

    /// What the name of a temporary directory moved aside to be removed ends with.
    package static let removingSuffix = ".removing"

    /// Whether ``removeAllForExit()`` has run: the process is about to exit, and errors seen by
    /// other threads from now on are side effects of the clean-up, not worth reporting.
    package static var isExiting: Bool { exiting.withLock { $0 } }

    /// Removes every registered path and returns how many existed. The registry stays locked
    /// afterwards, so no thread can register (and then create) another temporary file before
    /// the caller exits the process: call it only right before `_exit`.
    package static func removeAllForExit() -> Int {
        exiting.withLock { $0 = true }
        return paths.withLockForever { all in
            var removed = 0
            for path in all.sorted(by: >) {
                guard let status = try? FileSystem.linkStatus(path) else { continue }
                if status.isDirectory {
                    // Moved aside first: a thread still writing into it by path gets ENOENT instead
                    // of re-creating files in a half-removed directory.
                    let aside = path + removingSuffix
                    let target = (try? FileSystem.rename(path, to: aside)) != nil ? aside : path
                    FileSystem.removeTree(target)
                } else {
                    try? FileSystem.remove(path)
                }
                removed += 1
            }
            return removed
        }
    }
}
