import Foundation
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// `--pipeline NAME`: the shipped pipelines are found beside the binary, in the wheel's layout and
/// in a SwiftPM build's, and a name that is none of them is refused naming them.
@Suite struct ShippedPipelinesTests {
    /// A directory tree under a new temporary directory: `files` (relative paths) created empty.
    private func tree(_ files: [String]) throws -> String {
        let root = try TestSupport.temporaryDirectory().path
        for file in files {
            let url = URL(fileURLWithPath: "\(root)/\(file)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        return root
    }

    /// The wheel's layout under a new temporary directory: `sketchprep/bin/sketchprep` and
    /// `sketchprep/pipelines/` holding `pipelines` (file names), and what its binary is shipped.
    private func wheel(_ pipelines: [String]) throws -> (root: String, shipped: ShippedPipelines) {
        let root = try tree(["sketchprep/bin/sketchprep"] + pipelines.map { "sketchprep/pipelines/\($0)" })
        return (root, ShippedPipelines(executable: "\(root)/sketchprep/bin/sketchprep"))
    }

    @Test func aBareNameIsTheShippedPipelineBesideTheWheelsBinary() throws {
        let (root, shipped) = try wheel(["quickdraw-rnn.yaml", "tuberlin-cnn.yaml", "Notes.yaml", "readme.txt"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(shipped.directory == "\(root)/sketchprep/pipelines")
        #expect(shipped.names == ["quickdraw-rnn", "tuberlin-cnn"])
        #expect(try shipped.file(for: "quickdraw-rnn") == "\(root)/sketchprep/pipelines/quickdraw-rnn.yaml")
        #expect(try shipped.file(for: "tuberlin-cnn.yaml") == "\(root)/sketchprep/pipelines/tuberlin-cnn.yaml")
    }

    @Test func aSwiftPMBuildFindsTheRepositorysPipelinesDirectory() throws {
        let root = try tree(["repo/.build/x86_64-unknown-linux-gnu/release/sketchprep", "repo/Pipelines/quickdraw-bitmap28.yaml"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shipped = ShippedPipelines(executable: "\(root)/repo/.build/x86_64-unknown-linux-gnu/release/sketchprep")
        #expect(try shipped.file(for: "quickdraw-bitmap28") == "\(root)/repo/Pipelines/quickdraw-bitmap28.yaml")
        // Three levels up from a binary outside a build directory is no repository, even where a Pipelines/ is.
        let installed = ShippedPipelines(executable: "\(root)/repo/usr/local/bin/sketchprep")
        #expect(installed.directory == nil)
    }

    @Test func theTestBinaryOfThisRepositoryFindsEveryPipelineItShips() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestSupport.repositoryRoot.appendingPathComponent("Pipelines").path)
        let expected = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        #expect(!expected.isEmpty)
        #expect(ShippedPipelines.ofThisProcess.names == expected)
    }

    @Test func pathsArePathsAsGivenAndOnlyBareNamesAreLookedUp() throws {
        let (root, shipped) = try wheel(["quickdraw-rnn.yaml"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let ownFile = "\(root)/mine.yaml"
        try Data().write(to: URL(fileURLWithPath: ownFile))
        #expect(try shipped.file(for: ownFile) == ownFile)
        #expect(try shipped.file(for: "\(root)/other/missing.yaml") == "\(root)/other/missing.yaml")
        #expect(try shipped.file(for: "Quickdraw-RNN") == "Quickdraw-RNN")
    }

    @Test func aMissingPathNamedLikeAShippedPipelineIsRefusedNamingIt() throws {
        let (root, shipped) = try wheel(["quickdraw-rnn.yaml"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let error = #expect(throws: PipelineError.self) { try shipped.file(for: "\(root)/Pipelines/quickdraw-rnn.yaml") }
        #expect(error?.kind == .configuration)
        #expect(error?.description.hasSuffix("the shipped pipeline of that name is --pipeline quickdraw-rnn") == true)
    }

    @Test func anUnknownNameIsRefusedWithTheClosestAndEveryShippedName() throws {
        let (root, shipped) = try wheel(["quickdraw-rnn.yaml", "tuberlin-cnn.yaml"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let error = #expect(throws: PipelineError.self) { try shipped.file(for: "quickdraw-rn") }
        #expect(
            error?.description
                == "--pipeline quickdraw-rn: no such file, and no shipped pipeline of that name (did you mean quickdraw-rnn?); "
                + "shipped pipelines: quickdraw-rnn, tuberlin-cnn")
        let nowhere = ShippedPipelines(executable: "\(root)/elsewhere/sketchprep")
        #expect(nowhere.directory == nil && nowhere.names.isEmpty)
        let alone = #expect(throws: PipelineError.self) { try nowhere.file(for: "quickdraw-rnn") }
        #expect(alone?.description.hasSuffix("give the path of a pipeline file") == true)
    }
}
