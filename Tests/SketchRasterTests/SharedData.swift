import Foundation
import SketchCore

/// Locations of the shared real data (../shared/data from the repo root, or $SKETCHPREP_SHARED).
enum SharedData {
    static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["SKETCHPREP_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// The first `limit` drawings of a simplified NDJSON file.
    static func simplifiedDrawings(_ category: String, limit: Int) throws -> [Drawing] {
        let url = root.appendingPathComponent("quickdraw/simplified/\(category).ndjson")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").prefix(limit)
        return try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let strokes = (object["drawing"] as! [[[Double]]]).map { Stroke(x: $0[0], y: $0[1]) }
            return Drawing(strokes: strokes)
        }
    }

    /// Rows `0..<limit` of an official numpy_bitmap file (uint8, shape (N, 784)).
    static func officialBitmaps(_ category: String, limit: Int) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("quickdraw/bitmap/\(category).npy")))
        // NPY v1: magic(6) version(2) header_len(2, little-endian) header; data follows.
        let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
        let dataStart = 10 + headerLength
        return (0..<limit).map { row in Array(bytes[(dataStart + row * 784)..<(dataStart + (row + 1) * 784)]) }
    }
}
