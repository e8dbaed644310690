import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// SampleData's raw drawings as one NDJSON file and as one Kaggle train CSV of the same records
/// (with a bad row every 23 rows), both cut into ~8 KB byte-range chunks.
private struct CSVFixture {
    let root: String
    let ndjson: String
    let csv: String

    init() throws {
        root = try TestSupport.temporaryDirectory().path
        ndjson = "\(root)/drawings.ndjson"
        csv = "\(root)/drawings.csv"
        var lines: [String] = []
        var rows = ["countrycode,drawing,key_id,recognized,timestamp,word"]
        var parser = QuickDrawLineParser()
        let raw = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw")
        for name in ["cat.ndjson", "apple.ndjson", "fish.ndjson"] {
            for line in try String(contentsOf: raw.appendingPathComponent(name), encoding: .utf8).split(separator: "\n") {
                let record = try parser.parse(Array(line.utf8))
                lines.append(String(line))
                rows.append(
                    "\(record.countryCode),\"\(Self.pythonText(of: record.drawing))\",\(record.keyID),"
                        + "\(record.recognized ? "True" : "False"),\(record.timestamp),\(record.word)")
                if rows.count % 23 == 0 { rows.append("US,\"[[[1, 2], [3]]]\",7,True,,cat") }
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: ndjson, atomically: true, encoding: .utf8)
        try (rows.joined(separator: "\r\n") + "\r\n").write(toFile: csv, atomically: true, encoding: .utf8)
    }

    /// The strokes as Python's `str()` writes the lists (`[[[x, …], [y, …], [t, …]], …]`).
    static func pythonText(of drawing: Drawing) -> String {
        func list(_ values: [Double]) -> String {
            "[" + values.map { $0 == $0.rounded() ? String(Int($0)) : "\($0)" }.joined(separator: ", ") + "]"
        }
        return "["
            + drawing.strokes.map { "[" + ([$0.x, $0.y] + ($0.t.isEmpty ? [] : [$0.t])).map(list).joined(separator: ", ") + "]" }
            .joined(separator: ", ") + "]"
    }

    func run(input: String, output: String, jobs: Int = 1, partition: Partition? = nil) throws -> PipelineOutcome {
        let pipelineFile = "\(root)/p.yaml"
        try """
        source: {kind: quickdraw-ndjson, inputs: [\(input)]}
        encode: {kind: strokes, length: 75}
        output: {format: npy, examples_per_shard: 9, seed: 5}
        """.write(toFile: pipelineFile, atomically: true, encoding: .utf8)
        var config = try PipelineConfig.load(path: pipelineFile)
        config.output.directory = output
        var runner = PipelineRunner(config: config, pipelineFile: pipelineFile, showProgress: false, force: true)
        runner.jobs = jobs
        runner.partition = partition
        runner.chunkBytes = 8 << 10
        runner.temporaryDirectory = "\(root)/tmp"
        return try runner.run()
    }
}

/// The shard files of a dataset directory, by name.
private func shards(_ directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.contains("-of-") {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
    }
    return files
}

@Test func everyByteRangeChunkOfACSVKnowsItsHeaderAndGivesTheNDJSONShards() throws {
    let fixture = try CSVFixture()
    let fromNDJSON = try fixture.run(input: fixture.ndjson, output: "\(fixture.root)/ndjson")
    let fromCSV = try fixture.run(input: fixture.csv, output: "\(fixture.root)/csv")
    #expect(fromCSV.manifest.sources.count > 3)  // the CSV was cut into byte-range chunks
    #expect(fromCSV.manifest.records.written == fromNDJSON.manifest.records.written)
    #expect(fromCSV.manifest.records.rejected > 0 && fromCSV.manifest.records.isReconciled)
    #expect(try shards("\(fixture.root)/csv") == shards("\(fixture.root)/ndjson"))
    let quarantine = try String(contentsOfFile: "\(fixture.root)/csv/quarantine.ndjson", encoding: .utf8)
    // The bad rows' records (rejected by the record parser: quarantined in their NDJSON form).
    let badRecord = #"{"word":"cat","countrycode":"US","timestamp":"","recognized":true,"key_id":"7","drawing":[[[1, 2], [3]]]}"#
    #expect(quarantine.split(separator: "\n") == Array(repeating: Substring(badRecord), count: fromCSV.manifest.records.rejected))
}

@Test func csvOutputBytesAreTheSameForEveryJobCountAndPartitioning() throws {
    let fixture = try CSVFixture()
    _ = try fixture.run(input: fixture.csv, output: "\(fixture.root)/one")
    _ = try fixture.run(input: fixture.csv, output: "\(fixture.root)/two", jobs: 2)
    #expect(try shards("\(fixture.root)/two") == shards("\(fixture.root)/one"))
    let parts = try (0..<3).map { i -> String in
        let directory = "\(fixture.root)/part-\(i)"
        _ = try fixture.run(input: fixture.csv, output: directory, jobs: 2, partition: try Partition(parsing: "\(i)/3"))
        return directory
    }
    _ = try PartialRun.merge(parts, into: "\(fixture.root)/merged", showProgress: false)
    #expect(try shards("\(fixture.root)/merged") == shards("\(fixture.root)/one"))
    #expect(
        try Data(contentsOf: URL(fileURLWithPath: "\(fixture.root)/merged/quarantine.ndjson"))
            == Data(contentsOf: URL(fileURLWithPath: "\(fixture.root)/one/quarantine.ndjson")))
}
