import SketchTestSupport
import Foundation
import Testing
import SketchFormats
@testable import SketchDataset

@Suite struct DatasetVerifierTests {
    /// A small NPY dataset written by ShardedDatasetWriter, with its manifest.
    private func makeDataset() throws -> String {
        let directory = try TestSupport.temporaryDirectory().path
        let writer = ShardedDatasetWriter(directory: directory, options: ShardingOptions(
            format: .npy, examplesPerShard: 4, seed: 1, split: .standard))
        for index in 0..<12 {
            try writer.add(DatasetExample(keyID: "k\(index)", label: Int32(index % 2), payload: .uint8([UInt8(index), 0, 0, 0], shape: [2, 2])))
        }
        let written = try writer.finish()
        var counts: [String: Manifest.SplitCounts] = [:]
        for split in SplitName.allCases {
            let perLabel = written.counts[split] ?? [:]
            var perClass: [String: Int] = [:]
            for (label, count) in perLabel { perClass[label == 0 ? "a" : "b"] = count }
            counts[split.rawValue] = Manifest.SplitCounts(total: perLabel.values.reduce(0, +), perClass: perClass)
        }
        let manifest = Manifest(
            pipeline: .init(name: "t", file: "t.yaml", config: .object([:])), sources: [],
            classes: [.init(index: 0, word: "a"), .init(index: 1, word: "b")], counts: counts, shards: written.files,
            records: .init(read: 12, written: 12, filtered: 0, rejected: 0), quarantine: nil)
        try writeAtomically(try manifest.encoded(), to: directory + "/manifest.json")
        return directory
    }

    @Test("an intact dataset verifies with every listed file matching")
    func intactDatasetVerifies() throws {
        let directory = try makeDataset()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(result.ok)
        #expect(result.listedFiles > 0 && result.matchingFiles == result.listedFiles)
    }

    @Test("one changed byte, a missing file and an extra shard are each reported naming the file")
    func damageIsReported() throws {
        let directory = try makeDataset()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let manifest = try Manifest.read(path: directory + "/manifest.json")
        let changed = manifest.shards[0].file
        let removed = manifest.shards[1].file
        var bytes = try InputFile.readAll(directory + "/" + changed)
        bytes[bytes.count - 1] ^= 0xFF
        try writeAtomically(bytes, to: directory + "/" + changed)
        try FileManager.default.removeItem(atPath: directory + "/" + removed)
        try writeAtomically("k\n", to: directory + "/train-00007-of-00009.keys.txt")
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(!result.ok)
        #expect(result.problems.map(\.file) == [changed, removed, "train-00007-of-00009.keys.txt"])
        #expect(result.problems.map(\.kind) == ["sha256 mismatch", "missing", "extra shard"])
    }

    @Test("counts that do not add up are reported against manifest.json")
    func countMismatchIsReported() throws {
        let directory = try makeDataset()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var manifest = try Manifest.read(path: directory + "/manifest.json")
        manifest.records.written += 1
        let problems = DatasetVerifier.countProblems(manifest, manifestName: "manifest.json")
        #expect(problems.contains { $0.kind == "count mismatch" && $0.detail.contains("records.written") })
        #expect(problems.contains { $0.detail.contains("read 12") })
    }
}
