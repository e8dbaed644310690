import Testing
@testable import SketchCore

@Suite struct RamerDouglasPeuckerTests {
    private func kept(_ points: [(Double, Double)], epsilon: Double = 2) -> [Int] {
        var rdp = RamerDouglasPeucker(epsilon: epsilon)
        var kept: [Int] = []
        rdp.keptIndices(x: points.map(\.0), y: points.map(\.1), into: &kept)
        return kept
    }

    @Test func pointsWithinEpsilonOfTheChordAreDropped() {
        #expect(kept([(0, 0), (1, 1), (2, 0)]) == [0, 2])
        #expect(kept([(0, 0), (1, 1), (2, 0)], epsilon: 0.5) == [0, 1, 2])
    }

    @Test func aPointExactlyAtEpsilonIsDropped() {
        #expect(kept([(0, 0), (2, 2), (4, 0)]) == [0, 2])
        #expect(kept([(0, 0), (2, 2.0000001), (4, 0)]) == [0, 1, 2])
    }

    @Test func theFirstOfEquallyFarPointsWins() {
        // Points 1 and 3 are both 3 from the chord; point 1 is kept, and then point 3 is only
        // 1.41 from the new chord (1)–(4), so it goes. Had the last maximum won, 3 would stay.
        #expect(kept([(0, 0), (1, 3), (2, 1), (3, 3), (4, 0)]) == [0, 1, 4])
    }

    @Test func theDistanceIsToTheInfiniteLineSoPointsBeyondTheEndsOnItAreDropped() {
        #expect(kept([(0.0, 0.0), (6.0, 0.0), (3.0, 0.0)]) == [0, 2])
    }

    @Test func coincidentEndsMeasureTheDistanceToTheEndPoint() {
        #expect(kept([(0, 0), (3, 0), (0, 0)]) == [0, 1, 2])
        #expect(kept([(0, 0), (1, 1), (0, 0)]) == [0, 2])
    }

    @Test func twoPointsAreBothKept() {
        #expect(kept([(5, 5), (5, 5)]) == [0, 1])
    }
}
