import SketchIO
import Testing

@Suite struct ConcurrentIndicesTests {
    @Test(arguments: [(0, 4), (1, 4), (3, 1), (5, 2), (7, 16), (100, 3)])
    func everyIndexRunsOnceWhateverTheThreadCount(count: Int, threads: Int) {
        let seen = LockedValue([Int](repeating: 0, count: count))
        ConcurrentIndices.forEach(count, threads: threads) { index in seen.withLock { $0[index] += 1 } }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
    }
}
