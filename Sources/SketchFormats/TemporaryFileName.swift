import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names of the temporary files ``AtomicFileWriter`` writes before renaming them into place:
/// `<path>.tmp-<host>-<pid>`, so that runs on several hosts sharing a file system (cluster
/// partitions) can tell their own leftovers from another host's.
package enum TemporaryFileName {
    /// The temporary name for writing `path` from this process.
    package static func forWriting(_ path: String) -> String {
        "\(path)\(marker)\(host)-\(getpid())"
    }

    /// The part of a temporary name before the host.
    package static let marker = ".tmp-"

    /// This host's name with `/` and whitespace replaced by `_` (safe in a file name).
    package static let host: String = {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(text.map { $0 == "/" || $0.isWhitespace ? "_" : $0 })
    }()

    /// The host and process id a temporary file name carries, or nil when `name` is not one.
    package static func owner(of name: String) -> (host: String, pid: pid_t)? {
        guard let range = name.range(of: marker, options: .backwards) else { return nil }
        let tail = name[range.upperBound...]
        guard let dash = tail.lastIndex(of: "-"), let pid = pid_t(tail[tail.index(after: dash)...]), pid > 0
        else { return nil }
        return (String(tail[..<dash]), pid)
    }

    /// Whether process `pid` exists on this host (a process of another user counts as alive).
    package static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Removes, once per directory and process, the temporary files in `path`'s directory that
    /// this host wrote from a process that no longer exists. Another host's files and a live
    /// process's are left alone; failures to remove are ignored (the next run tries again).
    package static func removeStaleFiles(nextTo path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let key = directory.isEmpty ? "." : directory
        guard cleanedDirectories.claim(key) else { return }
        guard let stream = opendir(key) else { return }
        defer { closedir(stream) }
        while let item = readdir(stream) {
            let bytes = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self), let owner = owner(of: name),
                  owner.host == host, owner.pid != getpid(), !isAlive(owner.pid) else { continue }
            unlink("\(key)/\(name)")
        }
    }

    private static let cleanedDirectories = ClaimedKeys()
}

/// A set of strings that each caller can claim once, thread-safely.
private final class ClaimedKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed: Set<String> = []

    /// True the first time `key` is claimed.
    func claim(_ key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed.insert(key).inserted
    }
}
