import Foundation
import SketchCore
@testable import SketchIO

/// Paths and helpers shared by the SketchIO tests.
enum TestSupport {
    /// The repository root (two levels above this file's directory).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` next to the repository, or `$SKETCHPREP_SHARED`.
    static let sharedData: URL = {
        if let override = ProcessInfo.processInfo.environment["SKETCHPREP_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// The shared Quick, Draw! directory `kind` (`raw` or `simplified`), or the SampleData copy
    /// when the shared data is absent.
    static func quickDrawDirectory(_ kind: String) -> URL {
        let shared = sharedData.appendingPathComponent("quickdraw/\(kind)")
        if FileManager.default.fileExists(atPath: shared.path) { return shared }
        return repositoryRoot.appendingPathComponent("SampleData/quickdraw/\(kind)")
    }

    /// A fresh empty directory under the system temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sketchprep-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Reads every input, returning the records and rejections in order.
    static func readAll(_ inputs: [String]) throws -> (records: [SketchRecord], rejected: [RejectedLine]) {
        var records: [SketchRecord] = []
        var rejected: [RejectedLine] = []
        try QuickDrawReader(inputs: inputs).read(onRecord: { record, _ in records.append(record) },
                                                 onRejected: { rejected.append($0) })
        return (records, rejected)
    }

    /// Parses one line given as text.
    static func parse(_ line: String) throws(LineParseError) -> SketchRecord {
        var parser = QuickDrawLineParser()
        return try parser.parse(Array(line.utf8))
    }
}
