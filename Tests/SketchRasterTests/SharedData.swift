import Foundation
import SketchCore
import SketchFormats

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

    /// Rows `0..<limit` of an official numpy_bitmap file (uint8, 784 bytes per row; the shared
    /// files are shaped (N, 784) or (N, 1, 784)).
    static func officialBitmaps(_ category: String, limit: Int) throws -> [[UInt8]] {
        let array = try NPYReader.read(path: root.appendingPathComponent("quickdraw/bitmap/\(category).npy").path)
        precondition(array.dtype == .uint8 && array.shape.dropFirst().reduce(1, *) == 784, "unexpected bitmap layout")
        return (0..<limit).map { row in Array(array.data[(row * 784)..<((row + 1) * 784)]) }
    }
}
