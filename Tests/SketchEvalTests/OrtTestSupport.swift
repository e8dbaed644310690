import Foundation

@testable import SketchEval

/// Paths and shared objects the ORT wrapper tests use.
enum OrtTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var tinyModel: String { fixtures.appendingPathComponent("tiny.onnx").path }

    /// The runtime eval would load (SKETCHPREP_ORT_LIBRARY, else the active Python environment's `onnxruntime`, …).
    static func runtime() throws -> OnnxRuntime {
        try OnnxRuntime(libraryPath: OnnxRuntimeLibraryLocator.resolve(explicit: nil))
    }

    struct Expected: Decodable {
        struct Tensor: Decodable {
            let shape: [Int]
            let values: [Float]
        }
        struct Input: Decodable {
            let name: String
            let shape: [Int]
            let values: [Float]
        }
        let input: Input
        let outputs: [String: Tensor]
    }

    /// Inputs and Python onnxruntime's outputs for tiny.onnx (written by Fixtures/make_fixture.py).
    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixtures.appendingPathComponent("tiny-expected.json")))
    }
}
