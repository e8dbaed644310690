import SketchFormats
import SketchIO
import SystemPackage

/// A file the tool wrote inside a dataset or partial directory and named in that directory's own
/// JSON (`manifest.json` shards, `partial.json` runs). Those names are read back as untrusted: a
/// copied or edited manifest must not make `verify` or `merge` read `/dev/zero` or a file outside
/// the directory.
///
/// A name is accepted when it is relative, non-empty, holds no NUL or other control character and
/// no `.` or `..` component, and, after resolving symbolic links, names a regular file inside the
/// directory (resolved as well). Input paths recorded in `sources` and chunks are not members:
/// they stay as recorded and are opened as inputs, with the input caps.
package enum DirectoryMember {
    /// Why a name is refused (without touching the file system), or nil when it is well-formed.
    package static func lexicalProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.hasPrefix("/") { return "is an absolute path (a file inside the directory is expected)" }
        if name.unicodeScalars.contains(where: TerminalText.isControl) { return "holds a control character" }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
            return "has an empty, `.` or `..` component (a plain relative path is expected)"
        }
        return nil
    }

    /// Where a member name leads.
    package enum Resolution: Equatable {
        /// A regular file inside the directory: its resolved path and size.
        case file(path: String, bytes: Int)
        /// Nothing by that name.
        case missing
    }

    /// Resolves `name` inside `directory`; throws `DatasetError` naming `field` of `file` (the JSON
    /// that lists it) when the name is malformed, leads outside the directory or to anything but
    /// a regular file.
    package static func resolve(_ name: String, in directory: String, field: String, file: String) throws(DatasetError) -> Resolution {
        func refuse(_ why: String) -> DatasetError {
            DatasetError(.dataset, "\(file): \(field) \(quoted(name)) \(why); refused")
        }
        if let problem = lexicalProblem(name) { throw refuse(problem) }
        let base: String
        do {
            base = try FileSystem.resolvedPath(directory)
        } catch {
            throw DatasetError(
                .dataset, error == .noSuchFileOrDirectory ? "\(directory) not found" : "cannot resolve the directory \(directory)")
        }
        guard (try? FileSystem.status(base))?.isDirectory == true else {
            throw DatasetError(
                .dataset, "\(directory) is not a directory: give the dataset directory, the one holding \(DatasetLayout.manifest)")
        }
        guard let resolved = try? FileSystem.resolvedPath("\(directory)/\(name)") else {
            if case .failure(.noSuchFileOrDirectory) = Result(catching: { () throws(Errno) in
                try FileSystem.linkStatus("\(directory)/\(name)")
            }) {
                return .missing
            }
            throw refuse("cannot be resolved (a dangling or looping link?)")
        }
        guard resolved.hasPrefix(base == "/" ? "/" : base + "/") else { throw refuse("leads outside \(directory) (to \(resolved))") }
        guard let status = try? FileSystem.status(resolved), status.isRegular else {
            throw refuse("is not a regular file")
        }
        return .file(path: resolved, bytes: Int(status.size))
    }

    /// `name` in quotes with control characters escaped, for messages.
    private static func quoted(_ name: String) -> String { "\"" + TerminalText.escaped(name) + "\"" }
}
