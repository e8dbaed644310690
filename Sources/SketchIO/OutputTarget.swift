import Foundation

/// The one rule for what a single-file output path names: a file, or a stream (standard output
/// as `-`, a device, a FIFO). No file is ever created beside a stream: the paths derived from an
/// output (its quarantine, its `.keys.csv`, a report's timings) are nil for one.
package enum OutputTarget {
    /// The output path that means standard output.
    package static let standardOutput = "-"

    /// Paths that name a descriptor rather than a file, whatever that descriptor is open on.
    private static let descriptorPrefixes = ["/dev/fd/", "/proc/self/fd/"]

    /// Whether `path` is a stream: `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`,
    /// or an existing path that is neither a regular file nor a directory (`/dev/null`, a FIFO).
    package static func isStream(_ path: String) -> Bool {
        if path == standardOutput || path == "/dev/stdout" || path == "/dev/stderr" { return true }
        if descriptorPrefixes.contains(where: { path.hasPrefix($0) }) { return true }
        guard let status = try? FileSystem.status(path) else { return false }
        return !status.isRegular && !status.isDirectory
    }

    /// Creates the directory that will hold the output `path`, if missing (nothing for nil or a stream).
    package static func createParentDirectory(of path: String?) throws(IOError) {
        guard let path, !isStream(path) else { return }
        try createDirectories(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Whether `path` is standard output (`-`, `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`).
    package static func writesStandardOutput(_ path: String) -> Bool {
        [standardOutput, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains(path)
    }

    /// The path of a file written beside `output`: `output` with `suffix` replaced by
    /// `replacement` (or `replacement` appended when `output` does not end in `suffix`), e.g.
    /// `out.npy` → `out.rejected.ndjson`; nil when `output` is a stream.
    package static func sidecar(of output: String, replacing suffix: String, with replacement: String) -> String? {
        guard !isStream(output) else { return nil }
        return (output.hasSuffix(suffix) ? String(output.dropLast(suffix.count)) : output) + replacement
    }

}
