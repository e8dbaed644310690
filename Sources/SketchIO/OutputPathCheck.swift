#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one check, run by every command before it writes anything, that its outputs cannot
/// clobber each other or its inputs.
///
/// Refused (an `IOError` of kind `outputPaths` naming both paths and what to do):
/// - a stream input (stdin as `-` or `/dev/stdin`, a pipe, a FIFO) named twice: the second read
///   would find it empty;
/// - two outputs (files or directories) that are the same path;
/// - an output file that is an input, or lies inside an input directory (a later run would read it);
/// - an output directory that is, contains or lies inside an input;
/// - an output file inside an output directory of the same run.
/// Paths are compared after making them absolute and resolving symbolic links of the part that
/// exists, so `./a/../out.npy` and a link to `out.npy` count as the same file. Outputs that exist
/// and are neither regular files nor directories (`/dev/null`, a FIFO, `/dev/stdout`) are streams,
/// not files that can be clobbered, and are exempt; so are inputs `-` and non-regular inputs.
/// Also refused: `-` (standard output) as an output directory, and two outputs to standard output.
package struct OutputPathCheck {
    /// One path of the run with the option that names it, e.g. `("--quarantine", "out.rej")`.
    package typealias Named = (option: String, path: String)

    private var inputs: [Named] = []
    private var outputFiles: [Named] = []
    private var outputDirectories: [Named] = []

    package init() {}

    /// Adds inputs (files, directories, `-` for stdin) named by `option`.
    package mutating func inputs(_ paths: [String], option: String) {
        inputs += paths.map { (option, $0) }
    }

    /// Adds an output file named by `option` (nil: the option was not given).
    package mutating func outputFile(_ path: String?, option: String) {
        if let path { outputFiles.append((option, path)) }
    }

    /// Adds an output directory named by `option` (nil: the option was not given).
    package mutating func outputDirectory(_ path: String?, option: String) {
        if let path { outputDirectories.append((option, path)) }
    }

    /// Throws `IOError` (`outputPaths`) for the first conflict found.
    package func verify() throws(IOError) {
        if let directory = outputDirectories.first(where: { $0.path == OutputTarget.standardOutput }) {
            throw IOError(
                .outputPaths,
                "\(directory.option) - (standard output) is refused: \(directory.option) names a directory of files here;"
                    + " give a directory path")
        }
        let standardOutputs = outputFiles.filter { OutputTarget.writesStandardOutput($0.path) }
        if standardOutputs.count > 1 {
            throw IOError(
                .outputPaths,
                "\(standardOutputs[0].option) \(standardOutputs[0].path) and \(standardOutputs[1].option) \(standardOutputs[1].path)"
                    + " both write to standard output; give one of them a file")
        }
        let files = outputFiles.filter { !Self.isStream($0.path) }.map { ($0, Self.canonical($0.path)) }
        let directories = outputDirectories.filter { !Self.isStream($0.path) }.map { ($0, Self.canonical($0.path)) }
        var streams: [FileIdentity: Named] = [:]
        for input in inputs where input.path == "-" || !Self.isFileOrDirectory(input.path) {
            guard let identity = input.path == "-" ? FileIdentity(descriptor: 0) : FileIdentity(path: input.path) else { continue }
            if let first = streams[identity] {
                throw IOError(
                    .outputPaths,
                    "\(first.option) \(first.path) and \(input.option) \(input.path) are the same stream,"
                        + " which can be read only once; save it to a file first")
            }
            streams[identity] = input
        }
        let sources = inputs.filter { $0.path != "-" && Self.isFileOrDirectory($0.path) }.map { ($0, Self.canonical($0.path)) }
        let outputs = files + directories
        for (index, (first, firstPath)) in outputs.enumerated() {
            for (second, secondPath) in outputs[(index + 1)...] where firstPath == secondPath {
                throw IOError(
                    .outputPaths,
                    "\(first.option) \(first.path) and \(second.option) \(second.path) are the same path;"
                        + " give each output its own path")
            }
        }
        for (file, filePath) in files {
            for (directory, directoryPath) in directories where Self.isInside(filePath, directoryPath) {
                throw IOError(
                    .outputPaths,
                    "\(file.option) \(file.path) lies inside \(directory.option) \(directory.path),"
                        + " which this run writes; put it elsewhere")
            }
        }
        for (input, inputPath) in sources {
            for (output, outputPath) in files {
                if outputPath == inputPath {
                    throw IOError(
                        .outputPaths,
                        "\(output.option) \(output.path) is also an input (\(input.option) \(input.path));"
                            + " write the output elsewhere")
                }
                if Self.isInside(outputPath, inputPath) {
                    throw IOError(
                        .outputPaths,
                        "\(output.option) \(output.path) lies inside the input directory \(input.path)"
                            + " (\(input.option)), which is read; write the output elsewhere")
                }
            }
            for (output, outputPath) in directories {
                if outputPath == inputPath || Self.isInside(outputPath, inputPath) {
                    throw IOError(
                        .outputPaths,
                        "\(output.option) \(output.path) lies inside the input \(input.path)"
                            + " (\(input.option)), which is read; write the output elsewhere")
                }
                if Self.isInside(inputPath, outputPath) {
                    throw IOError(
                        .outputPaths,
                        "the input \(input.path) (\(input.option)) lies inside \(output.option)"
                            + " \(output.path), which this run rewrites; move the input or write the output elsewhere")
                }
            }
        }
    }

    /// Whether `path` lies strictly below `directory` (both canonical).
    static func isInside(_ path: String, _ directory: String) -> Bool {
        path.hasPrefix(directory == "/" ? "/" : directory + "/") && path != directory
    }

    /// Whether `path` is a stream (``OutputTarget/isStream(_:)``).
    static func isStream(_ path: String) -> Bool {
        OutputTarget.isStream(path)
    }

    /// Whether `path` exists as a regular file or a directory.
    static func isFileOrDirectory(_ path: String) -> Bool {
        guard let status = try? FileSystem.status(path) else { return false }
        return status.isRegular || status.isDirectory
    }

    /// `path` made absolute, with its longest existing prefix resolved by `realpath` and the rest
    /// normalised lexically (`.` dropped, `..` removes a component).
    static func canonical(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            absolute = (FileSystem.currentDirectory() ?? ".") + "/" + path
        }
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        var existing = components.count
        while existing > 0 {
            let prefix = "/" + components[..<existing].joined(separator: "/")
            if let base = try? FileSystem.resolvedPath(prefix) {
                let rest = components[existing...].joined(separator: "/")
                return rest.isEmpty ? base : (base == "/" ? "/" : base + "/") + rest
            }
            existing -= 1
        }
        return "/" + components.joined(separator: "/")
    }
}
