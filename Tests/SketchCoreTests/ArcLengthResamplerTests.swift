import Testing

@testable import SketchCore

@Suite struct ArcLengthResamplerTests {
    private func resample(_ points: [(Double, Double)], step: Double = 1) throws -> [[Double]] {
        var resampler = ArcLengthResampler(step: step)
        var outX: [Double] = []
        var outY: [Double] = []
        try resampler.resample(x: points.map(\.0), y: points.map(\.1), outX: &outX, outY: &outY)
        return zip(outX, outY).map { [$0, $1] }
    }

    @Test func placesAPointAtEveryIntegerArcLengthBeforeTheEndThenTheLastPoint() throws {
        // c = [0, 2, 6]: t = 1 is halfway along the first segment, t = 2 starts the second.
        #expect(try resample([(0, 0), (2, 0), (2, 4)]) == [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [2, 3], [2, 4]])
        #expect(try resample([(0, 0), (2.5, 0)]) == [[0, 0], [1, 0], [2, 0], [2.5, 0]])
    }

    @Test func skipsZeroLengthSegments() throws {
        #expect(try resample([(0, 0), (0, 0), (2, 0), (2, 0)]) == [[0, 0], [1, 0], [2, 0]])
    }

    @Test func samplesFollowThePathAroundCorners() throws {
        // c = [0, 1.5, 3]: t = 2 lies 0.5 along the second segment.
        #expect(try resample([(0, 0), (1.5, 0), (1.5, 1.5)]) == [[0, 0], [1, 0], [1.5, 0.5], [1.5, 1.5]])
    }

    @Test func honoursTheStep() throws {
        #expect(try resample([(0, 0), (0, 5)], step: 2) == [[0, 0], [0, 2], [0, 4], [0, 5]])
    }

    @Test func aSampleAtTheEndIsNotEmittedTwice() throws {
        // t = 3 is not < L = 3, so the end appears once, as the original last point.
        #expect(try resample([(0, 0), (3, 0)]) == [[0, 0], [1, 0], [2, 0], [3, 0]])
    }

    @Test func aOnePointStrokeBecomesTwoIdenticalPoints() throws {
        #expect(try resample([(7, 9)]) == [[7, 9], [7, 9]])
    }

    @Test func aZeroLengthStrokeKeepsItsFirstAndLastPoint() throws {
        #expect(try resample([(4, 4), (4, 4), (4, 4)]) == [[4, 4], [4, 4]])
    }
}
