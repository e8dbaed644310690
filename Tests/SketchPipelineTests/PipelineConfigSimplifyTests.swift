import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// The `simplify:` section goes through the same validation as the command-line options.
@Suite struct PipelineConfigSimplifyTests {
    private func load(simplify: String) throws -> PipelineConfig {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("p.yaml")
        try """
        source: {kind: quickdraw-ndjson, inputs: [x]}
        simplify: {\(simplify)}
        encode: {kind: strokes, length: 75}
        output: {format: npy, directory: out}
        """.write(to: file, atomically: true, encoding: .utf8)
        return try PipelineConfig.load(path: file.path)
    }

    private func error(simplify: String) -> String? {
        do {
            _ = try load(simplify: simplify)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func validKnobsAreRead() throws {
        let options = try load(simplify: "epsilon: 1.5, resample_step: 0.5, scale_target: 1000").simplification
        #expect(options.epsilon == 1.5 && options.resampleStep == 0.5 && options.scaleTarget == 1000)
    }

    @Test func theStepRatioIsBoundedAsOnTheCommandLine() {
        let message = error(simplify: "scale_target: 65535, resample_step: 0.001")
        #expect(message?.contains("simplify.scale_target") == true, "got: \(message ?? "nil")")
        #expect(message?.contains("scale_target / resample_step must be ≤ \(Int(DrawingLimits.maximumScaleOverStep))") == true)
    }

    @Test(arguments: [
        ("epsilon: -1", "simplify.epsilon", "epsilon must be a number in 0...1000"),
        ("resample_step: 0", "simplify.resample_step", "resample_step must be a number > 0 and ≤ 1000"),
        ("scale_target: 1e300", "simplify.scale_target", "scale_target must be a number > 0 and ≤ 65535"),
        ("epsilon: .nan", "simplify.epsilon", "epsilon must be a number in 0...1000"),
    ])
    func outOfBoundsKnobsNameTheirKey(simplify: String, key: String, requirement: String) {
        let message = error(simplify: simplify)
        #expect(message?.contains(key) == true, "got: \(message ?? "nil")")
        #expect(message?.contains(requirement) == true, "got: \(message ?? "nil")")
    }
}
