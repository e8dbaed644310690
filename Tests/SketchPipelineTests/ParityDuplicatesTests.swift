import SketchCore
import Testing

@testable import SketchPipeline

@Suite struct ParityDuplicatesTests {
    @Test func repeatsAreCountedAndTheFirstTenIdsNamedOnce() {
        var duplicates = DuplicateKeys()
        for key in ["a", "a", "b"] + (0..<20).map(String.init) { duplicates.add(key) }
        #expect(duplicates.count == 23)
        #expect(duplicates.examples == ["a", "b", "0", "1", "2", "3", "4", "5", "6", "7"])
    }

    @Test(arguments: [Int.max, 100_001, -5])
    func theWorstListLimitIsClamped(limit: Int) {
        var comparison = ParityComparison(worstLimit: limit)
        #expect((0...ParityComparison.maximumWorstLimit).contains(comparison.worstLimit))
        let drawing = Drawing(strokes: [Stroke(x: [0, 1], y: [0, 1])])
        let other = Drawing(strokes: [Stroke(x: [0, 2], y: [0, 1])])
        for index in 0..<10 { comparison.add(keyID: "\(index)", word: "w", ours: drawing, official: other) }
        #expect(comparison.worst.count == min(10, comparison.worstLimit))
    }
}
