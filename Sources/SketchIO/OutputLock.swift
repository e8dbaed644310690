import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock on one output (a dataset directory, a partial, a reduce part), held with `flock` on a
/// lock file beside it whose name the caller takes from `DatasetLayout`. The kernel drops the lock
/// when its process ends, however it ends (SIGKILL included), so a lock is never stale; the file
/// itself may outlive a killed run and is then simply locked again. An exclusive holder writes its
/// host, pid and command into the file, which is what a refused second run prints, and removes
/// the file when it releases the lock.
package final class OutputLock {
    /// The lock file.
    package let path: String
    private var descriptor: Int32
    private let exclusive: Bool

    private init(path: String, descriptor: Int32, exclusive: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.exclusive = exclusive
    }

    deinit { release() }

    /// Takes the lock of `output` through the lock file `path` at once, or throws
    /// ``IOError/Kind/busy`` naming the holder. `shared` locks (the parts of one `merge --reduce`
    /// run, each of which also locks its own part exclusively) exclude exclusive holders only.
    package static func acquire(_ path: String, output: String, shared: Bool = false) throws(IOError) -> OutputLock {
        // A holder removes the file while it still holds the lock, so a lock taken on a file that
        // has since left `path` is no lock: take it again on the file now there.
        for _ in 0..<16 {
            let descriptor: Int32
            do {
                descriptor = try FileSystem.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, permissions: 0o644)
            } catch {
                // The lock file is the tool's own: a refusal names the output and the place that refuses it.
                throw IOError.write(path: output, error: error)
            }
            do {
                try FileSystem.lock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB)
            } catch {
                let holder = Self.holder(descriptor)
                FileSystem.close(descriptor)
                guard error == .wouldBlock else { throw IOError(.write, path: path, errno: error) }
                throw IOError(
                    .busy,
                    "\(output) is being written by another run (\(holder ?? "the parts of a `merge --reduce` run")); "
                        + "wait for it to end, or write elsewhere (the lock is \(path))")
            }
            guard let opened = try? FileSystem.status(descriptor: descriptor), let named = try? FileSystem.linkStatus(path),
                opened.identity == named.identity
            else {
                FileSystem.close(descriptor)
                continue
            }
            let lock = OutputLock(path: path, descriptor: descriptor, exclusive: !shared)
            if !shared {
                let text = Array("host \(TemporaryFileName.host), pid \(getpid()), command \(commandLine)\n".utf8)
                try? FileSystem.truncate(descriptor, to: 0)
                _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                // Removed with the run's temporary files on SIGINT/SIGTERM (the lock dies with the process anyway).
                TemporaryFiles.register(path)
            }
            return lock
        }
        throw IOError.write(path: path, reason: "the lock file keeps being replaced; is another run starting at the same moment?")
    }

    /// Gives the lock up (an exclusive holder removes the lock file first); idempotent.
    package func release() {
        guard descriptor >= 0 else { return }
        if exclusive {
            try? FileSystem.remove(path)
            TemporaryFiles.unregister(path)
        }
        FileSystem.close(descriptor)
        descriptor = -1
    }

    /// The holder's line from a lock file (host, pid, command), made safe for a terminal.
    private static func holder(_ descriptor: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .newlines)
        return text.isEmpty ? nil : TerminalText.escaped(text)
    }

    /// This process's command line, as the lock file records it.
    private static let commandLine = CommandLine.arguments.joined(separator: " ")
}
