import Testing
@testable import SketchCore

@Suite struct ArcLengthResamplerTests {
    private func resample(_ points: [(Double, Double)], _ method: SimplificationOptions.Resampling,
                          step: Double = 1) -> [[Double]] {
        var resampler = ArcLengthResampler(method: method, step: step)
        var outX: [Double] = []
        var outY: [Double] = []
        resampler.resample(x: points.map(\.0), y: points.map(\.1), outX: &outX, outY: &outY)
        return zip(outX, outY).map { [$0, $1] }
    }

    @Test func lerpPlacesAPointAtEveryIntegerArcLengthBeforeTheEndThenTheLastPoint() {
        // c = [0, 2, 6]: t = 1 is halfway along the first segment, t = 2 starts the second.
        #expect(resample([(0, 0), (2, 0), (2, 4)], .lerp) == [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [2, 3], [2, 4]])
        #expect(resample([(0, 0), (2.5, 0)], .lerp) == [[0, 0], [1, 0], [2, 0], [2.5, 0]])
    }

    @Test func lerpSkipsZeroLengthSegments() {
        #expect(resample([(0, 0), (0, 0), (2, 0), (2, 0)], .lerp) == [[0, 0], [1, 0], [2, 0]])
    }

    @Test func interpolatedPlacesAPointEveryStepBeforeTheEndThenTheLastPoint() {
        #expect(resample([(0, 0), (2.5, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0], [2.5, 0]])
        // t = 3 is not < L = 3, so the end appears once, as the original last point.
        #expect(resample([(0, 0), (3, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0], [3, 0]])
    }

    @Test func interpolatedSamplesFollowThePathAroundCorners() {
        // c = [0, 1.5, 3]: t = 2 lies 0.5 along the second segment.
        #expect(resample([(0, 0), (1.5, 0), (1.5, 1.5)], .interpolated) == [[0, 0], [1, 0], [1.5, 0.5], [1.5, 1.5]])
    }

    @Test func interpolatedHonoursTheStep() {
        #expect(resample([(0, 0), (0, 5)], .interpolated, step: 2) == [[0, 0], [0, 2], [0, 4], [0, 5]])
    }

    @Test func carriedKeepsTheRemainderAcrossSegmentsAndAlwaysAppendsTheLastPoint() {
        // 0.5 is left over from the first segment, so the second gets samples at 0.5 and 1.5.
        #expect(resample([(0, 0), (1.5, 0), (1.5, 2)], .carried) == [[0, 0], [1, 0], [1.5, 0.5], [1.5, 1.5], [1.5, 2]])
        // A sample that lands on the end is followed by the original last point all the same.
        #expect(resample([(0, 0), (2, 0)], .carried) == [[0, 0], [1, 0], [2, 0], [2, 0]])
    }

    @Test(arguments: [SimplificationOptions.Resampling.lerp, .interpolated, .carried, .none])
    func aOnePointStrokeBecomesTwoIdenticalPoints(method: SimplificationOptions.Resampling) {
        #expect(resample([(7, 9)], method) == [[7, 9], [7, 9]])
    }

    @Test func aZeroLengthStrokeKeepsItsFirstAndLastPoint() {
        #expect(resample([(4, 4), (4, 4), (4, 4)], .lerp) == [[4, 4], [4, 4]])
        #expect(resample([(4, 4), (4, 4), (4, 4)], .interpolated) == [[4, 4], [4, 4]])
    }

    @Test func duplicateConsecutivePointsAreSkippedLikeNumpyInterp() {
        #expect(resample([(0, 0), (0, 0), (2, 0)], .interpolated) == [[0, 0], [1, 0], [2, 0]])
    }

    @Test func noResamplingCopiesThePoints() {
        #expect(resample([(0, 0), (10, 3)], .none) == [[0, 0], [10, 3]])
    }
}
