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

@Suite struct RamerDouglasPeuckerScanTests {
    /// The rule written plainly: divide at every interior point, keep the first strict maximum.
    private func referenceKept(x: [Double], y: [Double], epsilon: Double) -> [Int] {
        var kept: Set<Int> = [0, x.count - 1]
        var ranges = [(0, x.count - 1)]
        while let (start, end) = ranges.popLast() {
            guard end - start >= 2 else { continue }
            let dx = x[end] - x[start]
            let dy = y[end] - y[start]
            let chord = (dx * dx + dy * dy).squareRoot()
            var best = start + 1
            var maximum = -Double.infinity
            for index in (start + 1)..<end {
                let px = x[index] - x[start]
                let py = y[index] - y[start]
                let distance =
                    chord == 0
                    ? (px * px + py * py).squareRoot()
                    : abs(dx * (y[start] - y[index]) - dy * (x[start] - x[index])) / chord
                if distance > maximum {
                    maximum = distance
                    best = index
                }
            }
            if maximum > epsilon {
                kept.insert(best)
                ranges += [(start, best), (best, end)]
            }
        }
        return kept.sorted()
    }

    @Test func theTwoPassScanKeepsThePointsOfTheDivideEverywhereRule() {
        // Small integer grids make exact ties in |cross| common; fractional steps make near ties.
        var generator = FixedSeedGenerator()
        var rdp = RamerDouglasPeucker(epsilon: 2)
        var kept: [Int] = []
        for trial in 0..<3000 {
            let count = Int.random(in: 2...90, using: &generator)
            let grid = trial % 3 == 0 ? 1.0 : (trial % 3 == 1 ? 0.5 : 1.0 / 3.0)
            let x = (0..<count).map { _ in Double(Int.random(in: 0...40, using: &generator)) * grid }
            let y = (0..<count).map { _ in Double(Int.random(in: 0...40, using: &generator)) * grid }
            rdp.keptIndices(x: x, y: y, into: &kept)
            #expect(kept == referenceKept(x: x, y: y, epsilon: 2), "x: \(x), y: \(y)")
        }
    }
}

/// A xorshift64* sequence with a fixed seed, so the scan test sees the same polylines every run.
private struct FixedSeedGenerator: RandomNumberGenerator {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
