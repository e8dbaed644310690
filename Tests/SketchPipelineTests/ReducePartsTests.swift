import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// Every shipped pipeline (and a capped variant) on small inputs: SampleData's drawings, or a
/// tree of generated PNGs for the image-directory pipeline, with shards of 7 examples so that
/// every split has several. The inputs are cut into 8 KiB chunks and every example spills.
struct ReduceFixture {
    let root: String
    let pipelineFile: String
    let input: String

    init(pipeline name: String, edit: (String) -> String = { $0 }) throws {
        root = try TestSupport.temporaryDirectory().path
        let shipped = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Pipelines/\(name).yaml"), encoding: .utf8)
        if shipped.contains("kind: image-directory") {
            input = "\(root)/images"
            try Self.writeImages(into: input)
        } else {
            input = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw").path
        }
        var text = shipped.replacingOccurrences(of: #"inputs: \[[^\]]*\]"#, with: "inputs: [\(input)]", options: .regularExpression)
        text = text.replacingOccurrences(of: #"examples_per_shard: \d+"#, with: "examples_per_shard: 7", options: .regularExpression)
        pipelineFile = "\(root)/\(name).yaml"
        try edit(text).write(toFile: pipelineFile, atomically: true, encoding: .utf8)
    }

    /// `<split>/<class>/*.png` of 3 classes, 12 images each, and one file that is not a PNG.
    static func writeImages(into directory: String) throws {
        for (c, word) in ["ant", "bee", "cat"].enumerated() {
            for i in 0..<12 {
                let split = i % 4 == 0 ? "test" : "train"
                try FileManager.default.createDirectory(atPath: "\(directory)/\(split)/\(word)", withIntermediateDirectories: true)
                var pixels = [UInt8](repeating: 255, count: 40 * 30)
                for x in 0..<40 { pixels[((x * (c + 1) + i) % 30) * 40 + x] = 0 }
                try writeAtomically(
                    try PNGEncoder.encode(GrayImage(width: 40, height: 30, pixels: pixels)), to: "\(directory)/\(split)/\(word)/\(i).png")
            }
        }
        try writeAtomically(Array("not a png".utf8), to: "\(directory)/train/bee/broken.png")
    }

    func runner(output: String, jobs: Int = 1, partition: Partition? = nil) throws -> PipelineRunner {
        try smallChunkRunner(pipelineFile: pipelineFile, output: output, root: root, jobs: jobs, partition: partition)
    }
}

/// A runner of `pipelineFile` into `output` that cuts inputs into 8 KiB chunks and spills every
/// example, so that a few hundred drawings make many chunks and runs.
func smallChunkRunner(
    pipelineFile: String, output: String, root: String, jobs: Int, partition: Partition?,
    input: String? = nil
) throws -> PipelineRunner {
    var config = try PipelineConfig.load(path: pipelineFile)
    config.output.directory = output
    if let input { config.source.inputs = [input] }
    var runner = PipelineRunner(config: config, pipelineFile: pipelineFile, showProgress: false, force: true)
    runner.jobs = jobs
    runner.partition = partition
    runner.chunkBytes = 8 << 10
    runner.runBudgetBytes = 1
    runner.temporaryDirectory = "\(root)/tmp"
    return runner
}

/// Every file of a dataset directory except timings.json, by name.
func datasetFiles(_ directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "timings.json" {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
    }
    return files
}

/// The dataset of n partitions reduced by R parts: each part as its own step (`--reduce i/R`,
/// in reverse order), then the finalize step; R = 1 as plain `merge`.
private func partitionedAndReduced(_ fixture: ReduceFixture, n: Int, parts: Int) throws -> String {
    let partials = try (0..<n).map { i -> String in
        let directory = "\(fixture.root)/n\(n)r\(parts)/part-\(i)"
        _ = try fixture.runner(output: directory, partition: try Partition(parsing: "\(i)/\(n)")).run()
        return directory
    }
    let output = "\(fixture.root)/n\(n)r\(parts)/dataset"
    if parts == 1 {
        _ = try PartialRun.merge(partials.reversed(), into: output, showProgress: false)
    } else {
        for i in (0..<parts).reversed() {
            _ = try PartialRun.merge(partials, into: output, step: .part(ReducePart(index: i, count: parts)), showProgress: false)
        }
        _ = try PartialRun.merge(partials, into: output, step: .finalize, showProgress: false)
    }
    return output
}

private let shippedPipelines = [
    "quickdraw-bitmap28", "quickdraw-bitmap28-webdataset", "quickdraw-raster256", "quickdraw-rnn", "quickdraw-rnn-tfrecord",
    "quickdraw-sketchrnn", "quickdraw-tutorial-tfrecord", "tuberlin-cnn",
]

@Test(
    "every shipped pipeline writes the same bytes for (n, R) = (1, 1), (3, 2), (7, 4) and for 4 in-process parts",
    arguments: shippedPipelines)
func everyPipelineWritesTheSameBytesForEveryPartitioningAndReduceParts(pipeline: String) throws {
    let fixture = try ReduceFixture(pipeline: pipeline)
    try expectSameBytesForEveryShape(fixture, name: pipeline)
}

@Test func quotasReachedInsideABucketGiveTheSameBytesForEveryPartitioningAndReduceParts() throws {
    let fixture = try ReduceFixture(pipeline: "quickdraw-rnn") { text in
        text.replacingOccurrences(of: "max_per_class: null", with: "max_per_class: 15")
            .replacingOccurrences(of: "  test: 10\n", with: "  test: 10\n  counts: {train: 10, val: 2}\n")
    }
    let reference = try expectSameBytesForEveryShape(fixture, name: "capped rnn")
    let manifest = try Manifest.read("manifest.json", in: reference)
    #expect(manifest.records.filtered > 0)
    #expect(manifest.counts["train"]!.perClass.values.allSatisfy { $0 <= 10 })
}

/// Runs `fixture` in one process (jobs 1, then jobs 4) and partitioned; every output must have
/// the jobs-1 bytes. Returns the jobs-1 dataset.
@discardableResult
private func expectSameBytesForEveryShape(_ fixture: ReduceFixture, name: String) throws -> String {
    let reference = "\(fixture.root)/single"
    _ = try fixture.runner(output: reference).run()
    let expected = try datasetFiles(reference)
    #expect(expected.keys.contains("manifest.json") && expected.count > 4, "\(name): \(expected.keys.sorted())")
    _ = try fixture.runner(output: "\(fixture.root)/jobs4", jobs: 4).run()
    #expect(try datasetFiles("\(fixture.root)/jobs4") == expected, "\(name): jobs 4")
    for (n, parts) in [(1, 1), (3, 2), (7, 4)] {
        let output = try partitionedAndReduced(fixture, n: n, parts: parts)
        let files = try datasetFiles(output)
        #expect(files == expected, "\(name): n = \(n), R = \(parts): \(Set(files.keys).symmetricDifference(expected.keys).sorted())")
    }
    return reference
}

@Test func finalizeNamesAMissingReducePart() throws {
    let fixture = try ReduceFixture(pipeline: "quickdraw-rnn")
    let partial = "\(fixture.root)/part-0"
    _ = try fixture.runner(output: partial, partition: try Partition(parsing: "0/1")).run()
    let output = "\(fixture.root)/dataset"
    _ = try PartialRun.merge([partial], into: output, step: .part(ReducePart(index: 1, count: 3)), showProgress: false)
    #expect { try PartialRun.merge([partial], into: output, step: .finalize, showProgress: false) } throws: {
        "\($0)".contains("reduce part 0/3 is missing")
    }
    #expect(throws: PipelineError.self) { try ReducePart(parsing: "3/3") }
    #expect(throws: PipelineError.self) { try ReducePart(parsing: "0/2000") }
}

/// The parts of one `merge --reduce i/R` run share the output's staging area; a part of a run with
/// other partials is refused before it writes anything.
@Test func aReducePartOfAnotherRunIsRefusedAtOnce() throws {
    let fixture = try ReduceFixture(pipeline: "quickdraw-rnn")
    let all = "\(fixture.root)/all"
    _ = try fixture.runner(output: all, partition: try Partition(parsing: "0/1")).run()
    var config = try PipelineConfig.load(path: fixture.pipelineFile)
    config.output.directory = "\(fixture.root)/cats"
    config.filters.categories = ["cat"]
    var cats = PipelineRunner(config: config, pipelineFile: fixture.pipelineFile, showProgress: false, force: true)
    cats.partition = try Partition(parsing: "0/1")
    cats.temporaryDirectory = "\(fixture.root)/tmp"
    _ = try cats.run()
    let output = "\(fixture.root)/dataset"
    _ = try PartialRun.merge([all], into: output, step: .part(ReducePart(index: 0, count: 2)), showProgress: false)
    #expect {
        try PartialRun.merge(["\(fixture.root)/cats"], into: output, step: .part(ReducePart(index: 1, count: 2)), showProgress: false)
    } throws: {
        "\($0)".contains("holds the reduce parts of another merge")
    }
    #expect { try PartialRun.merge([all], into: output, step: .part(ReducePart(index: 1, count: 3)), showProgress: false) } throws: {
        "\($0)".contains("holds the reduce parts of another merge")
    }
}
