import Foundation
import SketchDataset
import SketchTestSupport
import Testing

@testable import SketchEval

@Suite("Evaluator inputs")
struct EvaluatorTests {
    @Test func findsInputsOfRequestedKeysAcrossShards() throws {
        let directory = try TestSupport.makeShardDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try ShardSplitReader(directory: directory, split: "val")
        let inputs = try Evaluator.inputs(forKeys: ["k3", "k2"], in: reader)
        #expect(inputs == ["k2": [0.2, 0.2, 0.2, 0.2], "k3": [1, 0, 0, 0]])
    }
}
