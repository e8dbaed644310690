import Foundation
import SketchDataset
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// A pipeline over one plain NDJSON file of SampleData's drawings plus bad lines, cut into
/// ~8 KB chunks so that every partition reads byte ranges of the same file.
private struct Fixture {
    let root: String
    let input: String
    let pipelineFile: String

    init() throws {
        root = try TestSupport.temporaryDirectory().path
        input = "\(root)/drawings.ndjson"
        var text = ""
        let raw = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw")
        for name in ["cat.ndjson", "apple.ndjson", "fish.ndjson"] {
            text += try String(contentsOf: raw.appendingPathComponent(name), encoding: .utf8)
        }
        let lines = text.split(separator: "\n")
        var mixed: [Substring] = []
        for (i, line) in lines.enumerated() {
            mixed.append(line)
            if i % 17 == 5 { mixed.append("{\"word\": \"broken") }
        }
        try mixed.joined(separator: "\n").appending("\n").write(toFile: input, atomically: true, encoding: .utf8)
        pipelineFile = "\(root)/p.yaml"
        try """
        source: {kind: quickdraw-ndjson, inputs: [\(input)]}
        filters: {max_per_class: 15}
        encode: {kind: strokes, length: 75}
        output: {format: npy, examples_per_shard: 7, seed: 5}
        """.write(toFile: pipelineFile, atomically: true, encoding: .utf8)
    }

    func runner(output: String, jobs: Int = 1, partition: Partition? = nil, input: String? = nil) throws -> PipelineRunner {
        try smallChunkRunner(pipelineFile: pipelineFile, output: output, root: root, jobs: jobs, partition: partition, input: input)
    }
}

@Test func outputBytesAreTheSameForEveryJobCount() throws {
    let fixture = try Fixture()
    let one = try fixture.runner(output: "\(fixture.root)/jobs1").run()
    #expect(one.manifest.records.rejected > 0 && one.manifest.records.filtered > 0)
    #expect(one.manifest.records.isReconciled)
    #expect(one.manifest.sources.count > 3)  // the file was cut into byte-range chunks
    for jobs in [2, 4] {
        _ = try fixture.runner(output: "\(fixture.root)/jobs\(jobs)", jobs: jobs).run()
        #expect(try datasetFiles("\(fixture.root)/jobs\(jobs)") == datasetFiles("\(fixture.root)/jobs1"))
    }
}

@Test func mergedPartitionsEqualTheSingleRunForOneThreeAndSevenPartitions() throws {
    let fixture = try Fixture()
    _ = try fixture.runner(output: "\(fixture.root)/single").run()
    let single = try datasetFiles("\(fixture.root)/single")
    #expect(single["quarantine.ndjson"]!.count > 0)
    for n in [1, 3, 7] {
        let parts = try (0..<n).map { i -> String in
            let directory = "\(fixture.root)/n\(n)/part-\(i)"
            _ = try fixture.runner(output: directory, jobs: 2, partition: try Partition(parsing: "\(i)/\(n)")).run()
            return directory
        }
        _ = try PartialRun.merge(parts.reversed(), into: "\(fixture.root)/n\(n)/merged", showProgress: false)
        #expect(try datasetFiles("\(fixture.root)/n\(n)/merged") == single, "n = \(n)")
    }
}

@Test func mergeRefusesMissingDuplicateAndForeignPartials() throws {
    let fixture = try Fixture()
    let parts = try (0..<3).map { i -> String in
        let directory = "\(fixture.root)/part-\(i)"
        _ = try fixture.runner(output: directory, partition: try Partition(parsing: "\(i)/3")).run()
        return directory
    }
    let out = "\(fixture.root)/out"
    #expect { try PartialRun.merge([parts[0], parts[1]], into: out, showProgress: false) } throws: { pipelineKind($0) == .partials }
    #expect {
        try PartialRun.merge([parts[0], parts[1], parts[1], parts[2]], into: out, showProgress: false)
    } throws: { pipelineKind($0) == .partials }
    let other = "\(fixture.root)/other-0"
    _ = try fixture.runner(output: other, partition: try Partition(parsing: "0/2")).run()
    #expect { try PartialRun.merge([other, parts[1], parts[2]], into: out, showProgress: false) } throws: { pipelineKind($0) == .partials }
    #expect { try PartialRun.merge([fixture.root], into: out, showProgress: false) } throws: { pipelineKind($0) == .partials }
    #expect { try PartialRun.merge([], into: out, showProgress: false) } throws: { pipelineKind($0) == .configuration }
    #expect { try Partition(parsing: "3/3") } throws: { pipelineKind($0) == .configuration }
}

@Test func pathsRecordedRelativeToARootGiveTheSameBytesUnderAnotherMountPoint() throws {
    let fixture = try Fixture()
    let mirror = "\(fixture.root)/mirror"
    try FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: fixture.input, toPath: "\(mirror)/drawings.ndjson")
    var single = try fixture.runner(output: "\(fixture.root)/single")
    single.recordedPaths = RecordedPaths(root: fixture.root)
    let outcome = try single.run()
    #expect(outcome.manifest.sources.allSatisfy { $0.path == "drawings.ndjson" })
    let parts = try (0..<2).map { i -> String in
        let directory = "\(fixture.root)/part-\(i)"
        var runner = try fixture.runner(output: directory, partition: try Partition(parsing: "\(i)/2"), input: "\(mirror)/drawings.ndjson")
        runner.recordedPaths = RecordedPaths(root: mirror + "/")
        _ = try runner.run()
        return directory
    }
    _ = try PartialRun.merge(parts, into: "\(fixture.root)/merged", showProgress: false)
    #expect(try datasetFiles("\(fixture.root)/merged") == datasetFiles("\(fixture.root)/single"))
    var outside = try fixture.runner(output: "\(fixture.root)/outside")
    outside.recordedPaths = RecordedPaths(root: mirror)
    #expect { try outside.run() } throws: { "\($0)".contains("is not under --root") }
}

@Test func recordedPathsAreRelativeToTheRootLexically() throws {
    let paths = RecordedPaths(root: "/data/quickdraw/")
    #expect(try paths.record("/data/quickdraw/raw/cat.ndjson") == "raw/cat.ndjson")
    #expect(try paths.record("/data/quickdraw/./raw/../raw/cat.ndjson") == "raw/cat.ndjson")
    #expect(try paths.record("/data/quickdraw") == ".")
    #expect(try paths.record("-") == "-")
    #expect(throws: PipelineError.self) { try paths.record("/data/quickdraw-other/cat.ndjson") }
    #expect(try RecordedPaths(root: nil).record("raw/../cat.ndjson") == "raw/../cat.ndjson")
}

/// `partial.json` of `directory` with `edit` applied to its JSON object.
private func tamper(_ directory: String, _ edit: (inout [String: Any]) -> Void) throws {
    let path = "\(directory)/\(DatasetLayout.partialManifest)"
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
}

@Test func mergeRefusesATamperedPartialNamingTheFileAndField() throws {
    let fixture = try Fixture()
    let parts = try (0..<2).map { i -> String in
        let directory = "\(fixture.root)/part-\(i)"
        _ = try fixture.runner(output: directory, partition: try Partition(parsing: "\(i)/2")).run()
        return directory
    }
    let original = try Data(contentsOf: URL(fileURLWithPath: "\(parts[0])/\(DatasetLayout.partialManifest)"))
    let cases: [(String, (inout [String: Any]) -> Void)] = [
        ("runs[0]: ../../../etc/passwd has an empty, `.` or `..` component", { $0["runs"] = ["../../../etc/passwd"] }),
        ("runs[0]: /dev/zero is an absolute path", { $0["runs"] = ["/dev/zero"] }),
        (
            "records.read: 9223372036854775807 is not a count",
            {
                var r = $0["records"] as! [String: Any]
                r["read"] = Int.max
                $0["records"] = r
            }
        ),
        (
            "read[0].chunk: 1000000000 is not an index",
            {
                var r = $0["read"] as! [[String: Any]]
                r[0]["chunk"] = 1_000_000_000
                $0["read"] = r
            }
        ),
        ("partition.index: 5 is not in 0..<2", { $0["partition"] = ["index": 5, "count": 2] }),
    ]
    for (expected, edit) in cases {
        try original.write(to: URL(fileURLWithPath: "\(parts[0])/\(DatasetLayout.partialManifest)"))
        try tamper(parts[0], edit)
        let error = #expect(throws: PipelineError.self) { try PartialRun.merge(parts, into: "\(fixture.root)/out", showProgress: false) }
        let message = error?.description ?? ""
        #expect(message.contains("part-0/partial.json") && message.contains(expected), "\(message)")
    }
    // A run file replaced by a link to /dev/zero is refused, not read forever.
    try original.write(to: URL(fileURLWithPath: "\(parts[0])/\(DatasetLayout.partialManifest)"))
    let partial = try PartialRun.decode(Array(original), path: "partial.json")
    let run = "\(parts[0])/\(try #require(partial.runs.first))"
    try FileManager.default.removeItem(atPath: run)
    try FileManager.default.createSymbolicLink(atPath: run, withDestinationPath: "/dev/zero")
    #expect(throws: DatasetError.self) { try PartialRun.merge(parts, into: "\(fixture.root)/out", showProgress: false) }
}

/// The kind of `error` when it is a `PipelineError`.
private func pipelineKind(_ error: any Error) -> PipelineError.Kind? { (error as? PipelineError)?.kind }
