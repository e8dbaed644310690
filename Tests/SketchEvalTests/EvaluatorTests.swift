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

@Suite struct CommonClassesTests {
    @Test func aModelWithNoClassOfTheDatasetIsRefusedNamingBothShortenedClassLists() {
        let model = (0..<20).map { "class\($0)" }
        #expect {
            try Evaluator.requireCommonClasses(model: model, dataset: ["cat", "dog"], datasetName: "the dataset out/x")
        } throws: { error in
            let text = "\(error)"
            return text.contains("no class in common") && text.contains("(20 classes: class0, class1")
                && text.contains("… (12 more)") && text.contains("the dataset out/x (2 classes: cat, dog)")
        }
        #expect(throws: Never.self) { try Evaluator.requireCommonClasses(model: model + ["cat"], dataset: ["cat"], datasetName: "d") }
    }
}
