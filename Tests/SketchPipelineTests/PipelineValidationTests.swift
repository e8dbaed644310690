import Foundation
import SketchDataset
import SketchTestSupport
import Testing

@testable import SketchPipeline

@Suite struct PipelineValidationTests {
    @Test func everyBundledPipelineValidates() throws {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("Pipelines")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            try PipelineValidation.validate(yaml: text, file: file)
        }
    }

    @Test func anInvalidPipelineThrowsAPipelineErrorNamingTheFileAndKey() {
        let text =
            "source: {kind: quickdraw-ndjson}\nencode: {kind: strokes, length: 75}\nsimplify: {scale_target: 65535, resample_step: 0.001}\n"
        #expect {
            try PipelineValidation.validate(yaml: text, file: "p.yaml")
        } throws: { error in
            let message = (error as? PipelineError)?.description ?? ""
            return message.contains("p.yaml") && message.contains("simplify.scale_target")
        }
    }

    /// The fuzzer's seeds (Fuzz/Corpus/FuzzPipelineYAML: anchors, aliases, extreme numbers, empty
    /// text) are accepted or refused with a `PipelineError`, never anything else.
    @Test func everyYAMLSeedValidatesOrThrowsAPipelineError() throws {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("Fuzz/Corpus/FuzzPipelineYAML")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
            do {
                try PipelineValidation.validate(yaml: text, file: name)
            } catch {
                #expect(error is PipelineError, "\(name): \(error)")
            }
        }
    }

    @Test func sourceFileFormatTakesTheDrawingFormatsAndOnlyOnDrawingSources() throws {
        try PipelineValidation.validate(
            yaml: "source: {kind: quickdraw-ndjson, file_format: bin, word: cat}\nencode: {kind: strokes}\n", file: "p.yaml")
        for (text, key) in [
            ("source: {kind: quickdraw-ndjson, file_format: png}\nencode: {kind: strokes}\n", "source.file_format"),
            ("source: {kind: image-directory, file_format: bin}\nencode: {kind: raster}\n", "source.file_format"),
        ] {
            #expect {
                try PipelineValidation.validate(yaml: text, file: "p.yaml")
            } throws: { error in
                ((error as? PipelineError)?.description ?? "").contains(key)
            }
        }
    }

    @Test func stroke3EncodingAndNPZOutputGoTogetherAndTakeMagentasSizesByDefault() throws {
        let config = try PipelineConfig.parse(
            text: "source: {kind: quickdraw-ndjson}\nencode: {kind: stroke3, epsilon: 2}\noutput: {format: npz}\n",
            file: "p.yaml")
        #expect(config.splitCounts == [.train: 70_000, .val: 2_500, .test: 2_500])
        #expect(config.split == Stroke3SplitQuota.sketchRNNSplit)
        for (text, key) in [
            ("source: {kind: quickdraw-ndjson}\nencode: {kind: stroke3}\n", "output.format"),
            ("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes}\noutput: {format: npz}\n", "output.format"),
            ("source: {kind: quickdraw-ndjson}\nencode: {kind: stroke3, length: 75}\noutput: {format: npz}\n", "encode.length"),
        ] {
            #expect {
                try PipelineValidation.validate(yaml: text, file: "p.yaml")
            } throws: { error in
                ((error as? PipelineError)?.description ?? "").contains(key)
            }
        }
    }
}
