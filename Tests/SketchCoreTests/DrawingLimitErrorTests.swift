import Testing

@testable import SketchCore

/// Each refusal of a drawing carries its kind, and its reason reads as it always did (quarantine
/// files and messages carry that text).
@Suite struct DrawingLimitErrorTests {
    /// The error `body` throws; nil when it throws none.
    private func refusal(_ body: () throws(DrawingLimitError) -> Void) -> DrawingLimitError? {
        do throws(DrawingLimitError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func tooManyStrokesIsItsKindWithTheSameReason() {
        let strokes = Array(repeating: Stroke(x: [0], y: [0]), count: DrawingLimits.maximumStrokes + 1)
        let error = refusal { () throws(DrawingLimitError) in try DrawingLimits.checkInput(Drawing(strokes: strokes)) }
        #expect(error?.kind == .tooManyStrokes)
        #expect(error?.reason == "too many strokes: 10001, more than 10000")
    }

    @Test func tooManyPointsIsItsKindWithTheSameReason() {
        let count = DrawingLimits.maximumPoints + 1
        let drawing = Drawing(strokes: [Stroke(x: Array(repeating: 0, count: count), y: Array(repeating: 0, count: count))])
        let error = refusal { () throws(DrawingLimitError) in try DrawingLimits.checkInput(drawing) }
        #expect(error?.kind == .tooManyPoints)
        #expect(error?.reason == "too many points: 100001, more than 100000")
    }

    @Test func aCoordinateBeyondTheInputBoundIsOutOfRangeWithTheSameReason() {
        let drawing = Drawing(strokes: [Stroke(x: [0], y: [0]), Stroke(x: [2e9], y: [0])])
        let error = refusal { () throws(DrawingLimitError) in try DrawingLimits.checkInput(drawing) }
        #expect(error?.kind == .coordinateOutOfRange)
        #expect(error?.reason == "coordinate out of range: stroke 2 has 2000000000.0, beyond ±1e9")
    }

    @Test func aCoordinateBeyondTheSimplifiedBoundIsOutOfRangeWithTheSameReason() {
        let drawing = Drawing(strokes: [Stroke(x: [70_000], y: [0])])
        let error = refusal { () throws(DrawingLimitError) in try DrawingLimits.checkSimplified(drawing) }
        #expect(error?.kind == .coordinateOutOfRange)
        #expect(error?.reason == "coordinate out of range: stroke 1 has 70000.0, beyond ±65535 for a drawing used as simplified")
    }

    @Test func aNonFiniteCoordinateIsOutOfRangeWithTheSameReason() {
        var simplifier = Simplifier()
        let error = refusal { () throws(DrawingLimitError) in _ = try simplifier.simplify(Drawing(strokes: [Stroke(x: [.nan], y: [0])])) }
        #expect(error?.kind == .coordinateOutOfRange)
        #expect(error?.reason == "coordinate out of range: a coordinate is not finite or the extent overflows")
    }

    @Test func tooManyResampledPointsIsItsKindWithTheSameReason() {
        var resampler = ArcLengthResampler(step: 1)
        var outX: [Double] = []
        var outY: [Double] = []
        let error = refusal { () throws(DrawingLimitError) in
            try resampler.resample(x: [0, 100], y: [0, 0], outX: &outX, outY: &outY, limit: 100)
        }
        #expect(error?.kind == .tooManyResampledPoints)
        #expect(
            error?.reason == "too many resampled points: a stroke needs 101 where 100 remain (caps: 100000 per stroke, 400000 per drawing)")
    }

    @Test func aPointBeyondTheRenderersRangeIsItsKindWithTheSameReason() {
        let error = refusal { () throws(DrawingLimitError) in try RenderRange.check(x: 5e6, y: 0) }
        #expect(error?.kind == .beyondRenderRange)
        #expect(
            error?.reason
                == "coordinate beyond the renderer's range: a point lands at (5000000.0, 0.0), beyond ±4194304 (cairo's 24.8 fixed point)")
    }

    @Test(arguments: [DrawingLimitError.Kind.missingTimes, .emptyDrawing, .emptyStroke])
    func aKindWithoutAPhraseHasTheDetailAsItsWholeReason(kind: DrawingLimitError.Kind) {
        let error = DrawingLimitError(kind, "stroke 3 has no points")
        #expect(error.kind == kind)
        #expect(error.reason == "stroke 3 has no points")
        #expect(error.description == error.reason)
    }
}
