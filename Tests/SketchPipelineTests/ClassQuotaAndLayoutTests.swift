import Foundation
import SketchDataset
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// `split.counts` keeps each class's first examples of a split in dataset order, and the tutorial
/// layout names the files as the TensorFlow tutorial does.
@Suite struct ClassQuotaAndLayoutTests {
    private func run(_ yaml: String, in root: String, name: String) throws -> (directory: String, outcome: PipelineOutcome) {
        let file = "\(root)/\(name).yaml"
        let raw = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw").path
        try "source: {kind: quickdraw-ndjson, inputs: [\(raw)]}\nencode: {kind: strokes, length: 75}\n\(yaml)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        var config = try PipelineConfig.load(path: file)
        config.output.directory = "\(root)/\(name)"
        var runner = PipelineRunner(config: config, pipelineFile: file, showProgress: false, force: true)
        runner.temporaryDirectory = "\(root)/tmp"
        return (config.output.directory, try runner.run())
    }

    /// Keys per class word of one split, in shard order (the dataset order).
    private func keysByClass(_ directory: String, split: String) throws -> [String: [String]] {
        guard let reader = try? ShardSplitReader(directory: directory, split: split) else { return [:] }
        var keys: [String: [String]] = [:]
        for stem in reader.stems {
            let shard = try reader.shard(stem)
            for (key, label) in zip(shard.keys, shard.labels) { keys[reader.classNames[label], default: []].append(key) }
        }
        return keys
    }

    @Test func splitCountsKeepTheFirstExamplesOfEachClassInDatasetOrder() throws {
        let root = try TestSupport.temporaryDirectory().path
        let output = "output: {format: npy, examples_per_shard: 4, seed: 9}"
        let all = try run("split: {train: 80, val: 10, test: 10}\n\(output)", in: root, name: "all")
        let capped = try run(
            "split: {train: 80, val: 10, test: 10, counts: {train: 5, val: 1, test: 0}}\n\(output)", in: root, name: "capped")
        for (split, cap) in [("train", 5), ("val", 1)] {
            let everything = try keysByClass(all.directory, split: split)
            let kept = try keysByClass(capped.directory, split: split)
            #expect(!kept.isEmpty)
            #expect(kept == everything.mapValues { Array($0.prefix(cap)) }, "split \(split)")
        }
        #expect(try keysByClass(capped.directory, split: "test").isEmpty)
        let records = capped.outcome.manifest.records
        #expect(records.isReconciled && records.read == all.outcome.manifest.records.read)
        #expect(
            records.filtered - all.outcome.manifest.records.filtered
                == all.outcome.manifest.records.written - records.written)
    }

    @Test func tutorialLayoutWritesTheTutorialsFileNamesAndClassFile() throws {
        let root = try TestSupport.temporaryDirectory().path
        let (directory, outcome) = try run(
            """
            split: {train: 80, val: 10, test: 10, counts: {test: 0}}
            output: {format: tfrecord, layout: tensorflow-tutorial, examples_per_shard: 40, seed: 42}
            """, in: root, name: "tutorial")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let shards = outcome.manifest.shards.map(\.file)
        #expect(shards.contains("training.tfrecord-00000-of-00003"))
        #expect(shards.contains("eval.tfrecord-00000-of-00001"))
        #expect(shards.allSatisfy { $0.hasPrefix("training.tfrecord-") || $0.hasPrefix("eval.tfrecord-") })
        #expect(
            Set(names) == Set(shards + ["manifest.json", "classes.txt", "training.tfrecord.classes", "quarantine.ndjson", "timings.json"]))
        let classes = try String(contentsOfFile: "\(directory)/training.tfrecord.classes", encoding: .utf8)
        #expect(classes == (try String(contentsOfFile: "\(directory)/classes.txt", encoding: .utf8)))
        #expect(classes.split(separator: "\n").count == 6)
    }

    @Test func thePresetAsksForTheTutorialsSizesAndLayout() throws {
        let preset = TestSupport.repositoryRoot.appendingPathComponent("Pipelines/quickdraw-tutorial-tfrecord.yaml").path
        let config = try PipelineConfig.load(path: preset)
        #expect(config.output.layout == .tensorflowTutorial && config.output.format == .tfrecord)
        #expect(config.splitCounts == [.train: 10_000, .val: 1_000])
        #expect(!config.filters.recognizedOnly)
    }

    @Test func theTutorialLayoutNeedsTFRecordShards() throws {
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("p.yaml").path
        try
            "source: {kind: quickdraw-ndjson, inputs: [x]}\nencode: {kind: strokes, length: 75}\noutput: {format: npy, layout: tensorflow-tutorial}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect { try PipelineConfig.load(path: file) } throws: { "\($0)".contains("output.layout") && "\($0)".contains("tfrecord") }
    }
}
