import Foundation
import SketchDataset
import Testing

@testable import SketchPipeline

@Suite struct BucketCountsTests {
    @Test func theSparseFormReadsBackTheSameCountsForEveryIndexAndCountSize() throws {
        var counts = BucketCounts()
        // First and last buckets, gaps of every varint width, counts past one varint byte.
        let keys: [(word: String, key: UInt64, split: SplitName, times: Int)] = [
            ("cat", 0, .train, 1), ("cat", UInt64.max, .test, 300), ("cat", 1 << 54, .val, 2),
            ("dog", 1 << 63, .train, 16_400), ("été", 42 << 54, .test, 1),
        ]
        for entry in keys { for _ in 0..<entry.times { counts.add(word: entry.word, sortKey: entry.key, split: entry.split) } }
        let sparse = counts.sparse
        #expect(sparse.map(\.word) == ["cat", "dog", "été"])
        #expect(try BucketCounts(sparse: sparse) == counts)
        let decoded = try JSONDecoder().decode([BucketCounts.Sparse].self, from: try JSONEncoder().encode(sparse))
        #expect(try BucketCounts(sparse: decoded) == counts)
        #expect(sparse[0].pairs()?.map(\.index) == [0, 4, 3_071])
        #expect(sparse[0].pairs()?.map(\.count) == [1, 2, 300])
    }

    @Test func sparseCountsOutOfRangeOrCutShortAreRefusedNotTrapped() {
        func text(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        let refused: [String] = [
            "not base64!",
            text([0x80]),  // a varint cut short
            text([0x00]),  // an index without its count
            text([0x80, 0x18, 0x01]),  // index 3,072
            text([0x00, 0x00]),  // a count of zero
            text([0x00, 0x80, 0x80, 0x80, 0x80, 0x10]),  // a count of 2³²
            text([0x00] + [UInt8](repeating: 0xFF, count: 10) + [0x01]),  // a varint longer than 10 bytes
            text([0x05, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x01]),  // a gap of 2⁶⁴ − 1
        ]
        for counts in refused {
            let entry = BucketCounts.Sparse(word: "cat", counts: counts)
            #expect(entry.pairs() == nil, "\(counts)")
            #expect(throws: PipelineError.self) { try BucketCounts(sparse: [entry]) }
        }
        #expect(BucketCounts.Sparse(word: "cat", counts: "").pairs()?.isEmpty == true)
    }
}
