import Foundation
import SketchDataset
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
        let recorded = try PipelineRequest.recordedRun(directory: "\(root)/first", output: "\(root)/again", settings: settings).runner
        for runner in [fresh, recorded] {
            #expect(runner.jobs == settings.jobs)
            #expect(runner.temporaryDirectory == settings.temporaryDirectory)
            #expect(runner.showProgress == settings.showProgress)
            #expect(runner.force == settings.force)
            #expect(runner.recordLimit == 5)
        }
        #expect(recorded.config.output.directory == "\(root)/again")
    }

    @Test(
        "a recorded run runs again on the inputs it checked: the same sources and bytes, up to date in place",
        arguments: ["quickdraw-rnn", "tuberlin-cnn"])
    func aRecordedRunRunsAgainOnTheInputsItChecked(pipeline: String) throws {
        let fixture = try ReduceFixture(pipeline: pipeline)
        defer { try? FileManager.default.removeItem(atPath: fixture.root) }
        let settings = PipelineRequest.RunSettings(jobs: 2, temporaryDirectory: "\(fixture.root)/tmp", showProgress: false, force: false)
        var replacements = PipelineRequest.Replacements()
        replacements.output = "\(fixture.root)/first"
        _ = try PipelineRequest.runner(
            pipelineFile: fixture.pipelineFile, replacements: replacements, partition: nil, recordLimit: nil,
            recordedPaths: RecordedPaths(root: nil), settings: settings
        ).run()
        let recorded = try Manifest.read(DatasetLayout.manifest, in: "\(fixture.root)/first")
        let rerun = try PipelineRequest.recordedRun(directory: "\(fixture.root)/first", output: "\(fixture.root)/again", settings: settings)
        #expect(rerun.sources == recorded.sources)
        let again = try rerun.run()
        #expect(!again.upToDate)
        #expect(again.manifest.sources == recorded.sources)
        #expect(try datasetFiles("\(fixture.root)/again") == datasetFiles("\(fixture.root)/first"))
        let inPlace = try PipelineRequest.recordedRun(directory: "\(fixture.root)/first", output: nil, settings: settings).run()
        #expect(inPlace.upToDate)
    }
}
