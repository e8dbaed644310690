import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// Small helpers for the files a command writes.
enum OutputPaths {
    /// Creates the directory that will hold `path`, if missing.
    static func createParentDirectory(of path: String) throws {
        try createDirectories(URL(fileURLWithPath: path).deletingLastPathComponent().path)
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

extension String {
    /// The string with `suffix` replaced by `replacement` (or `replacement` appended when absent):
    /// how commands derive their default quarantine path, e.g. `out.npy` → `out.rejected.ndjson`.
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        (hasSuffix(suffix) ? String(dropLast(suffix.count)) : self) + replacement
    }
}
