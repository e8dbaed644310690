import Foundation
import SketchTestSupport
import Testing

@testable import SketchEval

@Suite("ONNX Runtime wrapper")
struct InferenceSessionTests {
    @Test func outputsMatchPythonOnnxRuntimeWithin1e5() throws {
        let runtime = try OrtTestSupport.runtime()
        let session = try InferenceSession(runtime: runtime, modelPath: OrtTestSupport.tinyModel, threads: 1)
        let expected = try OrtTestSupport.expected()
        let input = try FloatTensor(shape: expected.input.shape, values: expected.input.values)
        let outputs = try session.run([expected.input.name: input])
        #expect(Set(outputs.keys) == ["hidden", "probs"])
        for (name, reference) in expected.outputs {
            let actual = try #require(outputs[name])
            #expect(actual.shape == reference.shape)
            let worst = zip(actual.values, reference.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= 1e-5, "output \(name) differs by \(worst)")
        }
    }

    @Test func describesDeclaredInputsAndOutputsWithDynamicBatch() throws {
        let session = try InferenceSession(runtime: try OrtTestSupport.runtime(), modelPath: OrtTestSupport.tinyModel)
        #expect(session.inputs == [TensorDescription(name: "x", isFloat32: true, shape: [nil, 6])])
        #expect(session.outputs.map(\.name) == ["hidden", "probs"])
    }

    @Test func runsOnlyTheRequestedOutputs() throws {
        let session = try InferenceSession(runtime: try OrtTestSupport.runtime(), modelPath: OrtTestSupport.tinyModel)
        let outputs = try session.run(
            ["x": FloatTensor(shape: [2, 6], values: Array(repeating: 0.5, count: 12))],
            outputNames: ["probs"])
        let probs = try #require(outputs["probs"])
        #expect(outputs.count == 1)
        #expect(abs(probs.row(0).reduce(0, +) - 1) < 1e-5)
    }

    @Test func wrongInputShapeIsAClearError() throws {
        let session = try InferenceSession(runtime: try OrtTestSupport.runtime(), modelPath: OrtTestSupport.tinyModel)
        let wrong = try FloatTensor(shape: [2, 5], values: Array(repeating: 0, count: 10))
        #expect(throws: OnnxRuntimeError.inputMismatch("input 'x' expects shape [?, 6], got [2, 5]")) {
            try session.run(["x": wrong])
        }
    }

    @Test func unknownInputNameIsAClearError() throws {
        let session = try InferenceSession(runtime: try OrtTestSupport.runtime(), modelPath: OrtTestSupport.tinyModel)
        let tensor = try FloatTensor(shape: [1, 6], values: Array(repeating: 0, count: 6))
        #expect(throws: OnnxRuntimeError.inputMismatch("the model has no input 'strokes' (inputs: x)")) {
            try session.run(["strokes": tensor])
        }
    }

    @Test func missingModelFileIsAClearError() throws {
        let runtime = try OrtTestSupport.runtime()
        #expect(throws: OnnxRuntimeError.modelUnavailable(path: "/nonexistent/model.onnx", reason: "no such file")) {
            try InferenceSession(runtime: runtime, modelPath: "/nonexistent/model.onnx")
        }
    }

    @Test func corruptModelFileIsAClearError() throws {
        let runtime = try OrtTestSupport.runtime()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-model-\(getpid()).onnx").path
        try Data("this is not protobuf".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try InferenceSession(runtime: runtime, modelPath: path)
            Issue.record("a text file loaded as a model")
        } catch let OnnxRuntimeError.modelUnavailable(reportedPath, reason) {
            #expect(reportedPath == path)
            #expect(reason.hasPrefix("cannot load the model"))
        }
    }

    @Test func tensorShapeAndValueCountMustAgree() {
        #expect(throws: OnnxRuntimeError.invalidTensor("shape [2, 3] needs 6 values, got 5")) {
            try FloatTensor(shape: [2, 3], values: [1, 2, 3, 4, 5])
        }
    }
}
