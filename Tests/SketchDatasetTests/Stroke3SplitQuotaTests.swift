import Testing
@testable import SketchDataset

@Suite struct Stroke3SplitQuotaTests {
    @Test func aSmallClassKeepsTheRatioOfTheSizes() throws {
        let quota = try Stroke3SplitQuota()
        #expect(quota.counts(forClassOf: 300) == (280, 10, 10))
        #expect(quota.counts(forClassOf: 100_000) == (70_000, 2_500, 2_500))
        #expect(quota.counts(forClassOf: 25) == (25, 0, 0))
    }

    @Test func placesDependOnlyOnTheKeysNotOnTheirOrder() throws {
        let quota = try Stroke3SplitQuota(train: 6, valid: 2, test: 2)
        let keys = (0..<20).map { "key\($0)" }
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
