import Testing
@testable import SketchDataset

@Test func splitCountsKeepTheFirstExamplesOfEachClassInEachSplit() {
    var quotas = ClassQuotas(maxPerClass: nil, perSplit: [.train: 2, .val: 1])
    let arrivals: [(String, SplitName)] = [("cat", .train), ("cat", .val), ("cat", .train), ("dog", .train),
                                           ("cat", .train), ("cat", .val), ("cat", .test), ("dog", .val)]
    #expect(arrivals.map { quotas.admit(word: $0.0, split: $0.1) } == [true, true, true, true, false, false, true, true])
}

@Test func maxPerClassCountsOnlyKeptExamplesOverAllSplits() {
    var quotas = ClassQuotas(maxPerClass: 2, perSplit: [.val: 0])
    let arrivals: [(String, SplitName)] = [("cat", .val), ("cat", .train), ("cat", .test), ("cat", .train)]
    #expect(arrivals.map { quotas.admit(word: $0.0, split: $0.1) } == [false, true, true, false])
}
