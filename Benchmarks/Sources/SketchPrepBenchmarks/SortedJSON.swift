import Foundation

/// Writes `value` as pretty JSON with sorted keys (and a final newline) to `path`, creating its directory.
func writeSortedJSON<Value: Encodable>(_ value: Value, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (encoder.encode(value) + Data("\n".utf8)).write(to: url, options: .atomic)
}
