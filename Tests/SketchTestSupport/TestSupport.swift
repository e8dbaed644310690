import Foundation
import SketchCore
import SketchFormats
import SketchIO

/// Paths and helpers shared by the test targets.
public enum TestSupport {
    /// The repository root (two levels above this file's directory).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` next to the repository, or `$SKETCHPREP_SHARED`.
    public static let sharedData: URL = {
        if let override = ProcessInfo.processInfo.environment["SKETCHPREP_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// The shared Quick, Draw! directory `kind` (`raw` or `simplified`), or the SampleData copy
    /// when the shared data is absent.
    public static func quickDrawDirectory(_ kind: String) -> URL {
        let shared = sharedData.appendingPathComponent("quickdraw/\(kind)")
        if FileManager.default.fileExists(atPath: shared.path) { return shared }
        return repositoryRoot.appendingPathComponent("SampleData/quickdraw/\(kind)")
    }

    /// A fresh empty directory inside this test process's own directory under the system
    /// temporary directory, which is removed, with everything in it, when the process exits.
    public static func temporaryDirectory() throws -> URL {
        let url = processDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `sketchprep-tests-<pid>-<random>` under the system temporary directory: every
    /// ``temporaryDirectory()`` of the process, removed at its exit (each one used to stay behind).
    private static let processDirectory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sketchprep-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
        atexit { try? FileManager.default.removeItem(at: TestSupport.processDirectory) }
        return url
    }()

    /// Reads every input, returning the records and rejections in order.
    public static func readAll(_ inputs: [String]) throws -> (records: [SketchRecord], rejected: [RejectedLine]) {
        var records: [SketchRecord] = []
        var rejected: [RejectedLine] = []
        try QuickDrawReader(inputs: inputs).read(
            onRecord: { record, _ in records.append(record) },
            onRejected: { rejected.append($0) })
        return (records, rejected)
    }

    /// Every record of `source` (location, key_id, kind, points) and every rejection (location,
    /// reason, bytes) as text, read whole (`read`) and with flat points (`readFlat`), for tests
    /// that the two agree. A flat record that still carries a drawing is marked so.
    public static func wholeAndFlatReads(of source: DrawingSource) throws -> (whole: [String], flat: [String]) {
        func rejection(_ line: RejectedLine) -> String { "\(line.location) \(line.reason) \(line.bytes)" }
        var whole: [String] = []
        try source.read(
            onRecord: { record, location in
                whole.append("\(location) \(record.keyID) \(record.kind) \(record.drawing.strokes.map { [$0.x, $0.y] })")
            }, onRejected: { whole.append(rejection($0)) })
        var flat: [String] = []
        try source.readFlat(
            onRecord: { record, strokes, location in
                let marker = record.drawing.strokes.isEmpty ? "" : " (and a drawing)"
                flat.append("\(location) \(record.keyID) \(record.kind) \(strokes.drawing.strokes.map { [$0.x, $0.y] })\(marker)")
            }, onRejected: { flat.append(rejection($0)) })
        return (whole, flat)
    }

    /// Parses one line given as text.
    public static func parse(_ line: String) throws(FormatError) -> SketchRecord {
        var parser = QuickDrawLineParser()
        return try parser.parse(Array(line.utf8))
    }

    /// A shard directory with two val shards and one test shard of 2×2 uint8 examples, classes cat/dog.
    public static func makeShardDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eval-shards-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeAtomically(#"{"classes":[{"index":1,"word":"dog"},{"index":0,"word":"cat"}]}"#, to: "\(directory)/manifest.json")
        func shard(_ stem: String, _ pixels: [UInt8], _ labels: [Int32], _ keys: [String]) throws {
            try writeAtomically(NPYWriter.encode(pixels, dtype: .uint8, shape: [keys.count, 2, 2]), to: "\(directory)/\(stem).x.npy")
            try writeAtomically(NPYWriter.encode(labels, dtype: .int32, shape: [keys.count]), to: "\(directory)/\(stem).y.npy")
            try writeAtomically(keys.map { $0 + "\n" }.joined(), to: "\(directory)/\(stem).keys.txt")
        }
        try shard("val-00001-of-00002", [255, 0, 0, 0], [1], ["k3"])
        try shard("val-00000-of-00002", [0, 0, 0, 0, 51, 51, 51, 51], [0, 1], ["k1", "k2"])
        try shard("test-00000-of-00001", [1, 2, 3, 4], [0], ["k4"])
        return directory
    }
}
