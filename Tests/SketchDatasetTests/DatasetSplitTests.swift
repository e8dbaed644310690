import SketchFormats
import Testing

@testable import SketchDataset

@Test func fnv1a64MatchesReferenceValues() {
    #expect(FNV1a64.hash("") == 0xcbf2_9ce4_8422_2325)
    #expect(FNV1a64.hash("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(FNV1a64.hash("foobar") == 0x8594_4171_f739_67e8)
}

@Test func splitMix64MatchesReferenceStreamForSeedZero() {
    var rng = SplitMix64(seed: 0)
    #expect(rng.next() == 0xe220_a839_7b1d_cdaf)
    #expect(rng.next() == 0x6e78_9e6a_a1b9_65f4)
    #expect(rng.next() == 0x06c4_5d18_8009_454f)
}

@Test func splitDependsOnlyOnKeyIDAndFollowsPercentages() throws {
    let split = DatasetSplit.standard
    let keys = (0..<20_000).map { String(5_000_000_000_000_000 + $0 * 7919) }
    let first = keys.map(split.split(forKeyID:))
    #expect(keys.map(split.split(forKeyID:)) == first)
    let trainShare = Double(first.filter { $0 == .train }.count) / Double(keys.count)
    #expect(abs(trainShare - 0.8) < 0.02)
    let allTrain = try DatasetSplit(train: 100, val: 0, test: 0)
    #expect(keys.allSatisfy { allTrain.split(forKeyID: $0) == .train })
}

@Test func splitRejectsPercentagesNotAddingUpTo100() {
    #expect { try DatasetSplit(train: 80, val: 10, test: 5) } throws: { ($0 as? DatasetError)?.kind == .configuration }
    #expect { try DatasetSplit(train: 110, val: -10, test: 0) } throws: { ($0 as? DatasetError)?.kind == .configuration }
}

@Test func sortKeyDependsOnKeyIDAndSeedOnly() {
    let keys = (0..<1000).map { "key\($0)" }
    let a = keys.map { SortKey.of(keyID: $0, seed: 42) }
    #expect(a == keys.map { SortKey.of(keyID: $0, seed: 42) })
    #expect(a != keys.map { SortKey.of(keyID: $0, seed: 43) })
    #expect(Set(a).count == keys.count)
    // The order is a shuffle of the input order, not the input order itself.
    #expect(keys.indices.sorted { a[$0] < a[$1] } != Array(keys.indices))
}
