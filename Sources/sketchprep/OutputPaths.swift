import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// Small helpers for the files a command writes.
enum OutputPaths {
    /// Creates the directory that will hold `path`, if missing (nothing for nil or a stream).
    static func createParentDirectory(of path: String?) throws {
        guard let path, !OutputTarget.isStream(path) else { return }
        try createDirectories(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// A command's quarantine: `given` (`--quarantine`), else the file beside `output` with
    /// `suffix` replaced by `replacement`; nil (rejections only counted and reported) when
    /// `output` is a stream and no `--quarantine` was given.
    static func quarantine(_ given: String?, beside output: String, replacing suffix: String, with replacement: String) -> String? {
        given ?? OutputTarget.sidecar(of: output, replacing: suffix, with: replacement)
    }

    /// Where a summary line says the output went: `output`, or that nothing was written there when
    /// the run wrote no record (`RecordCounts.commitsOutput`: what was there stays).
    static func destination(_ output: String, _ tally: RecordCounts) -> String {
        tally.commitsOutput ? output : "nothing written to \(output)"
    }

    /// Prints a command's summary line: on stdout, or on stderr when the output itself goes to
    /// standard output.
    static func printSummary(_ line: String, output: String) {
        if OutputTarget.writesStandardOutput(output) { printToStandardError(line) } else { print(line) }
    }

    /// Writes `value` as pretty, key-sorted JSON to `path`, atomically.
    static func writeJSON<Value: Encodable>(_ value: Value, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try createParentDirectory(of: path)
        var data = try encoder.encode(value)
        data.append(0x0A)
        try writeAtomically(data, to: path)
    }
}
