import Foundation
import SketchIO
import Testing
@testable import SketchEval

@Suite("Shard split reader")
struct ShardSplitReaderTests {
    /// A shard directory with two val shards and one test shard of 2×2 uint8 examples, classes cat/dog.
    static func makeDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eval-shards-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeAtomically(#"{"classes":[{"index":1,"word":"dog"},{"index":0,"word":"cat"}]}"#, to: "\(directory)/manifest.json")
        func shard(_ stem: String, _ pixels: [UInt8], _ labels: [Int32], _ keys: [String]) throws {
            try writeAtomically(NPYWriter.encode(pixels, dtype: .uint8, shape: [keys.count, 2, 2]), to: "\(directory)/\(stem).x.npy")
            try writeAtomically(NPYWriter.encode(labels, dtype: .int32, shape: [keys.count]), to: "\(directory)/\(stem).y.npy")
            try writeAtomically(keys.map { $0 + "\n" }.joined(), to: "\(directory)/\(stem).keys.txt")
        }
        try shard("val-00001-of-00002", [255, 0, 0, 0], [1], ["k3"])
        try shard("val-00000-of-00002", [0, 0, 0, 0, 51, 51, 51, 51], [0, 1], ["k1", "k2"])
        try shard("test-00000-of-00001", [1, 2, 3, 4], [0], ["k4"])
        return directory
    }

    @Test func readsClassMapInIndexOrderAndSplitShardsInOrder() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try ShardSplitReader(directory: directory, split: "val")
        #expect(reader.classNames == ["cat", "dog"])
        #expect(reader.stems == ["val-00000-of-00002", "val-00001-of-00002"])
        let shard = try reader.shard(reader.stems[0])
        #expect(shard.keys == ["k1", "k2"])
        #expect(shard.labels == [0, 1])
        #expect(shard.exampleShape == [2, 2])
        #expect(shard.features == [0, 0, 0, 0, 0.2, 0.2, 0.2, 0.2])  // uint8 scaled to [0, 1]
    }

    @Test func allSplitsReadsTrainValThenTest() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try ShardSplitReader(directory: directory, split: ShardSplitReader.allSplits)
        #expect(reader.stems == ["val-00000-of-00002", "val-00001-of-00002", "test-00000-of-00001"])
    }

    @Test func missingSplitOrManifestIsAClearError() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: ShardSplitReader.ReadError.self) { try ShardSplitReader(directory: directory, split: "train") }
        #expect(throws: ShardSplitReader.ReadError.self) { try ShardSplitReader(directory: "/nonexistent", split: "val") }
    }

    @Test func findsInputsOfRequestedKeysAcrossShards() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try ShardSplitReader(directory: directory, split: "val")
        let inputs = try Evaluator.inputs(forKeys: ["k3", "k2"], in: reader)
        #expect(inputs == ["k2": [0.2, 0.2, 0.2, 0.2], "k3": [1, 0, 0, 0]])
    }
}
