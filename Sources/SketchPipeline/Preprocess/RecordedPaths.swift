import Foundation
import SketchFormats

/// How input paths appear in a dataset's files (`manifest.json` sources and configuration,
/// `partial.json`, source errors and image paths in `quarantine.ndjson`): as given, or relative to
/// `--root`, so that runs that see the same inputs under different mount points write the same bytes.
package struct RecordedPaths: Sendable {
    /// The root, absolute and without `.`/`..` components; nil: paths are recorded as given.
    private let root: String?

    /// Paths relative to `root` (nil: as given).
    package init(root: String?) {
        self.root = root.map(Self.absolute)
    }

    /// `path` as recorded: relative to the root (`.` for the root itself), or as given without a root
    /// and for standard input (`-`). Throws when the path is not inside the root.
    package func record(_ path: String) throws -> String {
        guard let root, path != "-" else { return path }
        let absolute = Self.absolute(path)
        if absolute == root { return "." }
        let prefix = root == "/" ? "/" : root + "/"
        guard absolute.hasPrefix(prefix) else {
            throw PipelineError(
                .configuration,
                "input \(path) is not under --root \(root); give inputs inside the root, or leave --root out to record paths as given")
        }
        return String(absolute.dropFirst(prefix.count))
    }

    /// A whole-file rejection (an unusable image or directory entry, whose quarantined bytes are
    /// its path) rebuilt around the recorded path; any other rejection is returned unchanged.
    package func record(_ rejected: RejectedLine) throws -> RejectedLine {
        guard root != nil, rejected.location.line == 0, rejected.bytes == Array(rejected.location.file.utf8) else { return rejected }
        return .file(try record(rejected.location.file), reason: rejected.reason)
    }

    /// Absolute and lexically normalised (no symlinks resolved: the same text on every machine).
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardized.path
    }
}
