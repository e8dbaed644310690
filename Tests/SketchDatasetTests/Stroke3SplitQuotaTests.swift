import Testing

@testable import SketchDataset

@Suite struct Stroke3SplitQuotaTests {
    @Test func aDrawingGoesToTheSplitTheOneSplitRuleGivesItAndSizesCapEachSplit() throws {
        let quota = try Stroke3SplitQuota(train: 50, valid: 3, test: 3)
        let keys = (0..<3_000).map { "\(5_000_000_000_000_000 + $0 * 7_919)" }
        let assigned = quota.assign(keyIDs: keys)
        for (indices, split) in [(assigned.train, SplitName.train), (assigned.valid, .val), (assigned.test, .test)] {
            #expect(indices.allSatisfy { Stroke3SplitQuota.sketchRNNSplit.split(forKeyID: keys[$0]) == split })
            // Within a split: dataset order, the pipelines' order (SortKey with the default seed).
            let sortKeys = indices.map { SortKey.of(keyID: keys[$0], seed: 42) }
            #expect(sortKeys == sortKeys.sorted())
        }
        #expect((assigned.train.count, assigned.valid.count, assigned.test.count) == (50, 3, 3))
    }

    @Test func aSmallClassKeepsAboutTheRatioOfTheSizes() throws {
        let keys = (0..<3_000).map { "\(6_000_000_000_000_000 + $0 * 104_729)" }
        let assigned = try Stroke3SplitQuota().assign(keyIDs: keys)
        #expect(assigned.train.count + assigned.valid.count + assigned.test.count == 3_000)
        #expect((2_700...2_900).contains(assigned.train.count))
        #expect((50...150).contains(assigned.valid.count) && (50...150).contains(assigned.test.count))
    }

    @Test func placesDependOnlyOnTheKeysNotOnTheirOrder() throws {
        let quota = try Stroke3SplitQuota(train: 6, valid: 2, test: 2)
        let keys = (0..<200).map { "key\($0)" }
        let forward = quota.assign(keyIDs: keys)
        let backward = quota.assign(keyIDs: Array(keys.reversed()))
        func names(_ indices: [Int], _ keys: [String]) -> [String] { indices.map { keys[$0] } }
        #expect(names(forward.train, keys) == names(backward.train, keys.reversed()))
        #expect(names(forward.valid, keys) == names(backward.valid, keys.reversed()))
        #expect(names(forward.test, keys) == names(backward.test, keys.reversed()))
        #expect(Set(forward.train + forward.valid + forward.test).count == 10)
    }

    @Test func sizesMustNotAllBeZero() {
        #expect(throws: DatasetError.self) { try Stroke3SplitQuota(train: 0, valid: 0, test: 0) }
    }
}
