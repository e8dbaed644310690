import Foundation

/// Finds the ONNX Runtime shared library: an explicit path (`--ort-library`) wins, then the
/// `SKETCHPREP_ORT_LIBRARY` environment variable, then the path recorded by
/// scripts/setup-onnxruntime.sh in `.deps/onnxruntime/library-path` under the current directory
/// or any of its parents (so it works from the repository root and its subdirectories).
package enum OnnxRuntimeLibraryLocator {
    /// Environment variable naming the library path.
    package static let environmentVariable = "SKETCHPREP_ORT_LIBRARY"
    /// Where the setup script records the path of the wheel's library, relative to the repository root.
    package static let recordedPathFile = ".deps/onnxruntime/library-path"

    /// The library path to load, or throws `.libraryUnavailable` explaining the three ways to provide one.
    package static func resolve(
        explicit: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        searchingFrom directory: String = FileManager.default.currentDirectoryPath
    ) throws -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        var url = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        while true {
            let record = url.appendingPathComponent(recordedPathFile)
            if let text = try? String(contentsOf: record, encoding: .utf8) {
                let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !path.isEmpty { return path }
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        throw OnnxRuntimeError.libraryUnavailable(
            "no ONNX Runtime library configured: pass --ort-library PATH, set \(environmentVariable), or run `make setup` (records \(recordedPathFile))")
    }
}
