import Testing
@testable import SketchCore

@Suite struct ArcLengthResamplerTests {
    private func resample(_ points: [(Double, Double)], _ method: SimplificationOptions.Resampling,
                          step: Double = 1) throws -> [[Double]] {
        var resampler = ArcLengthResampler(method: method, step: step)
        var outX: [Double] = []
        var outY: [Double] = []
        try resampler.resample(x: points.map(\.0), y: points.map(\.1), outX: &outX, outY: &outY)
        return zip(outX, outY).map { [$0, $1] }
    }

    @Test func lerpPlacesAPointAtEveryIntegerArcLengthBeforeTheEndThenTheLastPoint() throws {
        // c = [0, 2, 6]: t = 1 is halfway along the first segment, t = 2 starts the second.
        #expect(try resample([(0, 0), (2, 0), (2, 4)], .lerp) == [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [2, 3], [2, 4]])
        #expect(try resample([(0, 0), (2.5, 0)], .lerp) == [[0, 0], [1, 0], [2, 0], [2.5, 0]])
    }

    @Test func lerpSkipsZeroLengthSegments() throws {
        #expect(try resample([(0, 0), (0, 0), (2, 0), (2, 0)], .lerp) == [[0, 0], [1, 0], [2, 0]])
    }

    @Test func interpolatedPlacesAPointEveryStepBeforeTheEndThenTheLastPoint() throws {
        #expect(try resample([(0, 0), (2.5, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0], [2.5, 0]])
        // t = 3 is not < L = 3, so the end appears once, as the original last point.
        #expect(try resample([(0, 0), (3, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0], [3, 0]])
    }

    @Test func interpolatedSamplesFollowThePathAroundCorners() throws {
        // c = [0, 1.5, 3]: t = 2 lies 0.5 along the second segment.
        #expect(try resample([(0, 0), (1.5, 0), (1.5, 1.5)], .interpolated) == [[0, 0], [1, 0], [1.5, 0.5], [1.5, 1.5]])
    }

    @Test func interpolatedHonoursTheStep() throws {
        #expect(try resample([(0, 0), (0, 5)], .interpolated, step: 2) == [[0, 0], [0, 2], [0, 4], [0, 5]])
    }

    @Test func carriedKeepsTheRemainderAcrossSegmentsAndAlwaysAppendsTheLastPoint() throws {
        // 0.5 is left over from the first segment, so the second gets samples at 0.5 and 1.5.
        #expect(try resample([(0, 0), (1.5, 0), (1.5, 2)], .carried) == [[0, 0], [1, 0], [1.5, 0.5], [1.5, 1.5], [1.5, 2]])
        // A sample that lands on the end is followed by the original last point all the same.
        #expect(try resample([(0, 0), (2, 0)], .carried) == [[0, 0], [1, 0], [2, 0], [2, 0]])
    }

    @Test(arguments: [SimplificationOptions.Resampling.lerp, .interpolated, .carried, .none])
    func aOnePointStrokeBecomesTwoIdenticalPoints(method: SimplificationOptions.Resampling) throws {
        #expect(try resample([(7, 9)], method) == [[7, 9], [7, 9]])
    }

    @Test func aZeroLengthStrokeKeepsItsFirstAndLastPoint() throws {
        #expect(try resample([(4, 4), (4, 4), (4, 4)], .lerp) == [[4, 4], [4, 4]])
        #expect(try resample([(4, 4), (4, 4), (4, 4)], .interpolated) == [[4, 4], [4, 4]])
    }

    @Test func duplicateConsecutivePointsAreSkippedLikeNumpyInterp() throws {
        #expect(try resample([(0, 0), (0, 0), (2, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0]])
    }

    @Test func noResamplingCopiesThePoints() throws {
        #expect(try resample([(0, 0), (10, 3)], .none) == [[0, 0], [10, 3]])
    }
}
