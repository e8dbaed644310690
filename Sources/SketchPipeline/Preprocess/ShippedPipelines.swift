import Foundation
import SketchIO

/// The pipelines that ship with SketchPrep (the repository's `Pipelines/*.yaml`), found beside the
/// running binary, so that `--pipeline quickdraw-rnn` names the same file in a source build and in
/// the wheel: `<binary's directory>/../pipelines` (the wheel: `sketchprep/bin/sketchprep` beside
/// `sketchprep/pipelines/`), else, for a binary two levels inside a SwiftPM build directory
/// (`.build/<triple>/<configuration>/sketchprep`, or another `.build*` scratch path), the
/// repository's `Pipelines/` beside that directory.
///
/// `--pipeline X` is the file `X` when a regular file is there. Otherwise a bare name (lower-case
/// letters, digits and `-`, optionally ending in `.yaml`) is the shipped pipeline of that name;
/// anything else is a path as given (a missing one whose file name is a shipped pipeline's is
/// refused naming that pipeline). The manifest records `X` as given.
package struct ShippedPipelines: Sendable {
    /// The directory of the shipped `*.yaml` files; nil when neither place holds one.
    package let directory: String?
    /// The names of the shipped pipelines (file names without `.yaml`), in byte order.
    package let names: [String]

    /// The shipped pipelines beside `executable` (the binary's resolved path): each place listed
    /// once, here.
    package init(executable: String?) {
        var candidates: [String] = []
        if let executable {
            let binaryDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            candidates.append(binaryDirectory.appendingPathComponent("../pipelines").standardized.path)
            // A SwiftPM build directory (`.build`, or another scratch path such as `.build-native`) two levels up.
            let buildDirectory = binaryDirectory.deletingLastPathComponent().deletingLastPathComponent()
            if buildDirectory.lastPathComponent.hasPrefix(".build") {
                candidates.append(buildDirectory.appendingPathComponent("../Pipelines").standardized.path)
            }
        }
        for candidate in candidates {
            let found = Self.pipelineNames(in: candidate)
            if !found.isEmpty {
                (directory, names) = (candidate, found)
                return
            }
        }
        (directory, names) = (nil, [])
    }

    /// The shipped pipelines of this process's binary (`/proc/self/exe`).
    package static var ofThisProcess: ShippedPipelines {
        ShippedPipelines(executable: FileSystem.symbolicLinkTarget("/proc/self/exe") ?? CommandLine.arguments.first)
    }

    private static let suffix = ".yaml"

    /// The pipeline names of `directory`'s `*.yaml` files whose names are bare names, in byte order.
    private static func pipelineNames(in directory: String) -> [String] {
        FileSystem.entryNames(of: directory)
            .filter { $0.hasSuffix(suffix) && isBareName(String($0.dropLast(suffix.count))) }
            .map { String($0.dropLast(suffix.count)) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The pipeline file `argument` names (see the type's rule). Throws `PipelineError` for a bare
    /// name that names nothing here and no shipped pipeline, listing the shipped names.
    package func file(for argument: String) throws -> String {
        if (try? FileSystem.status(argument))?.isRegular == true { return argument }
        let name = argument.hasSuffix(Self.suffix) ? String(argument.dropLast(Self.suffix.count)) : argument
        guard Self.isBareName(name) else {
            let baseName = URL(fileURLWithPath: name).lastPathComponent
            if FileSystem.isMissing(argument) && names.contains(baseName) {
                throw PipelineError(
                    .configuration, "--pipeline \(argument): no such file; the shipped pipeline of that name is --pipeline \(baseName)")
            }
            return argument
        }
        if let directory, names.contains(name) { return "\(directory)/\(name)\(Self.suffix)" }
        // Something else of that name (a FIFO, a directory) is read as given, and refused with its reason.
        if !FileSystem.isMissing(argument) { return argument }
        let closest = ClosestNames.suggest(for: name, among: names)
        throw PipelineError(
            .configuration,
            "--pipeline \(argument): no such file, and no shipped pipeline of that name"
                + (closest.isEmpty ? "" : " (did you mean \(closest.joined(separator: ", "))?)")
                + (names.isEmpty
                    ? "; no shipped pipelines were found beside this binary: give the path of a pipeline file"
                    : "; shipped pipelines: \(names.joined(separator: ", "))"))
    }

    /// Whether `name` could name a shipped pipeline: lower-case ASCII letters, digits and `-`, not
    /// starting with `-`.
    private static func isBareName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }
}
