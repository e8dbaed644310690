import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names of the temporary files and directories this process writes before renaming them into
/// place: `<path>.tmp-<host>-<pid>-<random>`. Host and pid let runs on several hosts sharing a
/// file system (cluster partitions) tell their own leftovers from another host's; the random part
/// makes the name unguessable, so nobody can plant a file or link under it in advance.
package enum TemporaryFileName {
    /// A fresh temporary name for writing `path` from this process.
    package static func forWriting(_ path: String) -> String {
        "\(path)\(marker)\(host)-\(getpid())-\(randomTag())"
    }

    /// The part of a temporary name before the host.
    package static let marker = ".tmp-"

    /// Longest host name a temporary name carries (longer names are cut), so that the suffix a
    /// temporary name adds has a fixed maximum (``maximumSuffixBytes``).
    package static let maximumHostBytes = 32

    /// Bytes of the random part.
    package static let randomBytes = 8

    /// The most bytes ``forWriting(_:)`` adds to a path: marker, host, two dashes, a pid of up to
    /// 10 digits and the random part (the file-name rule for data words counts it, ``DataName``).
    package static let maximumSuffixBytes = marker.utf8.count + maximumHostBytes + 2 + 10 + randomBytes

    /// This host's name with `/`, `-`, whitespace and control characters replaced by `_` (safe in
    /// a file name and unambiguous to parse), cut to ``maximumHostBytes`` bytes.
    package static let host: String = {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }.prefix(maximumHostBytes)
        let safe = bytes.map { $0 == 0x2F || $0 == 0x2D || $0 <= 0x20 || $0 >= 0x7F ? UInt8(ascii: "_") : $0 }
        return String(decoding: safe, as: UTF8.self)
    }()

    /// The host and process id a temporary name carries, or nil when `name` is not one.
    /// Accepts `…tmp-<host>-<pid>-<random>` and the older `…tmp-<host>-<pid>`.
    package static func owner(of name: String) -> (host: String, pid: pid_t)? {
        var name = name
        guard let offset = name.withUTF8({ endOfLastMarker(in: $0) }) else { return nil }
        var parts = name[name.utf8.index(name.utf8.startIndex, offsetBy: offset)...]
            .split(separator: "-", omittingEmptySubsequences: false)
        if parts.count >= 3, parts.last!.count == randomBytes, pid_t(parts[parts.count - 2]) != nil { parts.removeLast() }
        guard parts.count >= 2, let pid = pid_t(parts.last!), pid > 0 else { return nil }
        return (parts.dropLast().joined(separator: "-"), pid)
    }

    /// The byte offset just past the last ``marker`` in the name `bytes`, or nil when it holds none.
    /// A byte loop: Foundation's backwards `range(of:)` cost about 0.5 µs a name, so writing next
    /// to 200,000 other files spent 0.1 s of CPU on their names (CHANGELOG.md).
    private static func endOfLastMarker(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let markerBytes = marker.utf8
        var start = bytes.count - markerBytes.count
        while start >= 0 {
            if bytes[start] == UInt8(ascii: "."), bytes[start...].starts(with: markerBytes) { return start + markerBytes.count }
            start -= 1
        }
        return nil
    }

    /// Whether process `pid` exists on this host (a process of another user counts as alive).
    package static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Creates a fresh directory `<path>.tmp-<host>-<pid>-<random>` (mode 0700, exclusively, as
    /// `mkdtemp` does), registers it with ``TemporaryFiles`` and returns its path.
    package static func makeDirectory(_ path: String) throws(IOError) -> String {
        for _ in 0..<16 {
            let candidate = forWriting(path)
            let made = TemporaryFiles.create(candidate) {
                Result { () throws(Errno) in try FileSystem.makeDirectory(candidate, permissions: 0o700) }
            }
            guard case .failure(let error) = made else { return candidate }
            TemporaryFiles.unregister(candidate)
            guard error == .fileExists else { throw IOError(.write, path: candidate, errno: error) }
        }
        throw IOError.write(path: path, reason: "cannot create a fresh temporary directory next to it")
    }

    /// Removes, once per directory and process, the temporary files in `path`'s directory that
    /// this host wrote from a process that no longer exists. Another host's files and a live
    /// process's are left alone; failures to remove are ignored (the next run tries again).
    package static func removeStaleFiles(nextTo path: String) {
        let key = parentDirectory(of: path)
        guard cleanedDirectories.claim(key) else { return }
        for bytes in (try? FileSystem.entryNameBytes(of: key)) ?? [] {
            guard bytes.withUnsafeBufferPointer({ endOfLastMarker(in: $0) }) != nil,
                let name = String(validating: bytes, as: UTF8.self), let owner = owner(of: name),
                owner.host == host, owner.pid != getpid(), !isAlive(owner.pid)
            else { continue }
            try? FileSystem.remove("\(key)/\(name)")
        }
    }

    private static func randomTag() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<randomBytes).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
    }

    private static let cleanedDirectories = LockedValue<Set<String>>([])
}

extension LockedValue where Value == Set<String> {
    /// True the first time `key` is claimed.
    fileprivate func claim(_ key: String) -> Bool {
        withLock { $0.insert(key).inserted }
    }
}
