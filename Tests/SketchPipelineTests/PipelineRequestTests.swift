import Foundation
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// A run from a pipeline file and `--from` take the options they share from one `RunSettings`.
@Suite struct PipelineRequestTests {
    @Test func aFreshRunAndItsRecordedRunTakeTheSameSettings() throws {
        let root = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let settings = PipelineRequest.RunSettings(jobs: 3, temporaryDirectory: root, showProgress: false, force: true)
        var replacements = PipelineRequest.Replacements()
        replacements.inputs = [TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw/cat.ndjson").path]
        replacements.output = "\(root)/first"
        let fresh = try PipelineRequest.runner(
            pipelineFile: TestSupport.repositoryRoot.appendingPathComponent("Pipelines/quickdraw-rnn.yaml").path,
            replacements: replacements, partition: nil, recordLimit: 5, recordedPaths: RecordedPaths(root: nil), settings: settings)
        _ = try fresh.run()
        let recorded = try PipelineRequest.recordedRunner(directory: "\(root)/first", output: "\(root)/again", settings: settings)
        for runner in [fresh, recorded] {
            #expect(runner.jobs == settings.jobs)
            #expect(runner.temporaryDirectory == settings.temporaryDirectory)
            #expect(runner.showProgress == settings.showProgress)
            #expect(runner.force == settings.force)
            #expect(runner.recordLimit == 5)
        }
        #expect(recorded.config.output.directory == "\(root)/again")
    }
}
