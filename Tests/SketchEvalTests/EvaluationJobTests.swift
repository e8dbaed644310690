import Foundation
import SketchTestSupport
import Testing

@testable import SketchEval

/// An evaluation job checks its own report directory against its own inputs, before it reads,
/// writes or looks for the ONNX Runtime library.
@Suite struct EvaluationJobTests {
    private func job(root: String, report: String, compareShards: String? = nil) -> EvaluationJob {
        EvaluationJob(
            modelDirectory: "\(root)/model", shards: ["\(root)/shards"], split: "val", reportDirectory: report,
            compareShards: compareShards, compareSplit: "val", batchSize: 1, threads: 0,
            libraryPath: "/nonexistent/libonnxruntime.so", misclassifiedLimit: 0)
    }

    private func directories() throws -> String {
        let root = try TestSupport.temporaryDirectory().path
        for name in ["model", "shards", "other"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(name)", withIntermediateDirectories: true)
        }
        return root
    }

    @Test func aReportDirectoryInsideTheJobsShardsIsRefused() throws {
        let root = try directories()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect {
            try job(root: root, report: "\(root)/shards/report").checkPaths()
        } throws: { error in
            "\(error)".contains(
                "--report \(root)/shards/report lies inside the input \(root)/shards (--shards), which is read; write the output elsewhere")
        }
    }

    @Test func aReportDirectoryInsideTheJobsComparisonShardsIsRefused() throws {
        let root = try directories()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect {
            try job(root: root, report: "\(root)/other/report", compareShards: "\(root)/other").checkPaths()
        } throws: { error in
            "\(error)".contains("(--compare-shards)")
        }
    }

    @Test func aReportDirectoryApartFromTheInputsPassesWithoutTheLibrary() throws {
        let root = try directories()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try job(root: root, report: "\(root)/report", compareShards: "\(root)/other").checkPaths()
    }
}
