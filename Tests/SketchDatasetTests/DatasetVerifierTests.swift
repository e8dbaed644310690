import Foundation
import SketchFormats
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchDataset

@Suite struct DatasetVerifierTests {
    /// A small NPY dataset written by ShardedDatasetWriter, with its manifest.
    private func makeDataset() throws -> String {
        let directory = try TestSupport.temporaryDirectory().path
        let writer = ShardedDatasetWriter(
            directory: directory,
            options: ShardingOptions(
                format: .npy, examplesPerShard: 4, seed: 1, split: .standard))
        for index in 0..<12 {
            try writer.add(
                DatasetExample(keyID: "k\(index)", label: Int32(index % 2), payload: .uint8([UInt8(index), 0, 0, 0], shape: [2, 2])))
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

    @Test("files that neither the manifest nor the tool's own list names are strays; the tool's own files are not")
    func strayFilesAreReported() throws {
        let directory = try makeDataset()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in [DatasetLayout.classes, DatasetLayout.timings, DatasetLayout.quarantine, ".reduce-0-of-2.json"] {
            try writeAtomically("x\n", to: directory + "/" + name)
        }
        try writeAtomically("x\n", to: directory + "/extra-00000-of-00001.x.npy")
        try writeAtomically("x\n", to: directory + "/notes.txt")
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(result.problems.map(\.file) == ["extra-00000-of-00001.x.npy", "notes.txt"])
        #expect(result.problems.map(\.kind) == ["stray file", "stray file"])
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

    @Test("counts that would overflow when added are reported as invalid values, not summed")
    func overflowingCountsAreReported() throws {
        let directory = try makeDataset()
        var manifest = try Manifest.read(path: directory + "/manifest.json")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        manifest.records.read = Int.max
        manifest.records.written = Int.max
        manifest.counts["train"]!.perClass["b"] = Int.max
        manifest.shards[0].examples = -1
        try writeAtomically(try manifest.encoded(), to: directory + "/manifest.json")
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(!result.ok)
        #expect(
            result.problems.filter { $0.kind == "invalid value" }.map { String($0.detail.prefix { $0 != ":" }) }
                == ["counts.train.per_class.b", "shards[0].examples", "records.read", "records.written"])
        #expect(!result.problems.contains { $0.kind == "count mismatch" })
    }

    @Test("a shard listed as ../../dev/zero or an absolute path is refused without being opened")
    func shardOutsideTheDirectoryIsRefused() throws {
        let directory = try makeDataset()
        var manifest = try Manifest.read(path: directory + "/manifest.json")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        manifest.shards[0].file = "../../dev/zero"
        manifest.shards[1].file = "/dev/zero"
        try writeAtomically(try manifest.encoded(), to: directory + "/manifest.json")
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(
            result.problems.filter { $0.kind == "invalid value" }.map(\.detail)
                == [
                    "shards[0].file: ../../dev/zero has an empty, `.` or `..` component (a plain relative path is expected)",
                    "shards[1].file: /dev/zero is an absolute path (a file inside the directory is expected)",
                ])
        #expect(result.matchingFiles == manifest.shards.count - 2)
    }

    @Test("a shard that is a link to /dev/zero or out of the directory, or a FIFO, is refused")
    func plantedLinksAndFIFOsAreRefused() throws {
        let directory = try makeDataset()
        let manifest = try Manifest.read(path: directory + "/manifest.json")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = manifest.shards.map(\.file)
        try FileManager.default.removeItem(atPath: "\(directory)/\(names[0])")
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(names[0])", withDestinationPath: "/dev/zero")
        try FileManager.default.removeItem(atPath: "\(directory)/\(names[1])")
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(names[1])", withDestinationPath: "/etc/hostname")
        try FileManager.default.removeItem(atPath: "\(directory)/\(names[2])")
        #expect(mkfifo("\(directory)/\(names[2])", 0o600) == 0)
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(result.problems.map(\.kind) == ["refused path", "refused path", "refused path"])
        #expect(result.problems[0].detail.contains("leads outside"))
        #expect(result.problems[2].detail.contains("is not a regular file"))
    }

    @Test("a shard larger than recorded is reported from its size, without reading it")
    func grownShardIsReportedBySize() throws {
        let directory = try makeDataset()
        let manifest = try Manifest.read(path: directory + "/manifest.json")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = manifest.shards[0].file
        try writeAtomically(try InputFile.readAll("\(directory)/\(name)") + [0], to: "\(directory)/\(name)")
        let result = try DatasetVerifier.verify(directory: directory)
        #expect(result.problems.map(\.kind) == ["size mismatch"])
    }

    @Test("a manifest.json that is a FIFO is refused, not waited on")
    func manifestFIFOIsRefused() throws {
        let directory = try makeDataset()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: directory + "/manifest.json")
        #expect(mkfifo(directory + "/manifest.json", 0o600) == 0)
        let error = #expect(throws: DatasetError.self) { try DatasetVerifier.verify(directory: directory) }
        #expect(error?.description.contains("is not a regular file") == true)
    }
}
