import Testing

@testable import SketchCore

/// Resampling caps, non-finite input and the one validation of simplification parameters.
@Suite struct DrawingLimitsTests {
    private func zigZag(points: Int, height: Double = 1) -> Drawing {
        let x = (0..<points).map { Double($0 % 2) * 1 }
        let y = (0..<points).map { Double($0) * height / Double(points) }
        return Drawing(strokes: [Stroke(x: x, y: y)])
    }

    @Test func aStrokeOverThePerStrokeCapIsRefusedBeforeAllocating() {
        // 2,000 segments each about 255 long after scaling: about 510,000 resampled points.
        var simplifier = Simplifier()
        #expect {
            _ = try simplifier.simplify(zigZag(points: 2_001))
        } throws: { error in
            (error as? DrawingLimitError)?.kind == .tooManyResampledPoints
        }
    }

    @Test func theResamplerPlacesNoMoreThanItsLimit() throws {
        var resampler = ArcLengthResampler(step: 1)
        var outX: [Double] = []
        var outY: [Double] = []
        #expect(try resampler.resample(x: [0, 99], y: [0, 0], outX: &outX, outY: &outY, limit: 100) == 100)
        #expect(throws: DrawingLimitError.self) {
            try resampler.resample(x: [0, 100], y: [0, 0], outX: &outX, outY: &outY, limit: 100)
        }
        #expect(throws: DrawingLimitError.self) {
            try resampler.resample(x: [0, .infinity], y: [0, 0], outX: &outX, outY: &outY, limit: 100)
        }
    }

    @Test func theDrawingCapCountsEveryStroke() throws {
        // Each stroke alone is under the per-stroke cap; together they exceed the drawing's.
        let strokeCount = DrawingLimits.maximumResampledPointsPerDrawing / 25_500 + 1
        let strokes = (0..<strokeCount).map { _ in
            Stroke(x: (0..<101).map { Double($0 % 2) }, y: (0..<101).map { Double($0) / 101 })
        }
        var simplifier = Simplifier()
        #expect(throws: DrawingLimitError.self) { try simplifier.simplify(Drawing(strokes: strokes)) }
        #expect(try simplifier.simplify(Drawing(strokes: Array(strokes.prefix(2)))).strokes.count == 2)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude])
    func nonFiniteOrOverflowingCoordinatesAreRefusedNotTrapped(value: Double) {
        let drawing = Drawing(strokes: [Stroke(x: [-.greatestFiniteMagnitude, value], y: [0, 1])])
        var simplifier = Simplifier()
        #expect {
            _ = try simplifier.simplify(drawing)
        } throws: { error in
            (error as? DrawingLimitError)?.kind == .coordinateOutOfRange
        }
    }

    @Test func aScaledCoordinateThatOverflowsIsRefusedNotLoopedOn() {
        // The extent 1e307 is finite, but 1e307 · 255 is not: the stroke's length is infinite.
        var simplifier = Simplifier()
        #expect(throws: DrawingLimitError.self) {
            try simplifier.simplify(Drawing(strokes: [Stroke(x: [0, 1e307], y: [0, 0])]))
        }
    }

    @Test func coordinatesAtTheBoundSimplifyToFiniteIntegers() throws {
        let bound = DrawingLimits.maximumCoordinateMagnitude
        let drawing = Drawing(strokes: [Stroke(x: [-bound, bound, -bound], y: [bound, -bound, 0])])
        let result = try GoogleSimplifier.simplify(drawing)
        for value in result.strokes.flatMap({ $0.x + $0.y }) {
            #expect(value.isFinite && value >= 0 && value <= 255)
        }
    }

    @Test func validOptionsHaveNoProblem() {
        #expect(SimplificationOptions.google.validationProblem == nil)
        #expect(SimplificationOptions(scaleTarget: 65_535, resampleStep: 1).validationProblem == nil)
    }

    @Test(arguments: [
        (SimplificationOptions(epsilon: .nan), "epsilon"),
        (SimplificationOptions(epsilon: -1), "epsilon"),
        (SimplificationOptions(resampleStep: 0), "resample_step"),
        (SimplificationOptions(resampleStep: .infinity), "resample_step"),
        (SimplificationOptions(scaleTarget: 1e300), "scale_target"),
        (SimplificationOptions(scaleTarget: .nan), "scale_target"),
        (SimplificationOptions(scaleTarget: 65_535, resampleStep: 0.5), "scale_target / resample_step"),
        (SimplificationOptions(scaleTarget: 255, resampleStep: 1e-9), "scale_target / resample_step"),
    ])
    func outOfBoundsOptionsNameTheirKey(options: SimplificationOptions, key: String) {
        #expect(options.validationProblem?.key == key)
    }
}
