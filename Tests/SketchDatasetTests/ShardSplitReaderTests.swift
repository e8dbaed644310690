import Foundation
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchDataset

@Suite("Shard split reader")
struct ShardSplitReaderTests {
    @Test func readsClassMapInIndexOrderAndSplitShardsInOrder() throws {
        let directory = try TestSupport.makeShardDirectory()
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
        let directory = try TestSupport.makeShardDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = try ShardSplitReader(directory: directory, split: ShardSplitReader.allSplits)
        #expect(reader.stems == ["val-00000-of-00002", "val-00001-of-00002", "test-00000-of-00001"])
    }

    @Test func missingSplitOrManifestIsAClearError() throws {
        let directory = try TestSupport.makeShardDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: DatasetError.self) { try ShardSplitReader(directory: directory, split: "train") }
        #expect(throws: DatasetError.self) { try ShardSplitReader(directory: "/nonexistent", split: "val") }
    }
}
