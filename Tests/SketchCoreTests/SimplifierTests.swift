import Testing

@testable import SketchCore

@Suite struct SimplifierTests {
    private func drawing(_ strokes: [[(Double, Double)]]) -> Drawing {
        Drawing(strokes: strokes.map { Stroke(x: $0.map(\.0), y: $0.map(\.1)) })
    }

    private func points(_ drawing: Drawing) -> [[[Double]]] {
        drawing.strokes.map { [$0.x, $0.y] }
    }

    @Test func alignsToTheTopLeftAndScalesTheLargerExtentTo255() throws {
        // Extent 100 (x) vs 50 (y): factor 2.55 for both axes; RDP keeps the three corners.
        let result = try GoogleSimplifier.simplify(drawing([[(100, 300), (200, 300), (200, 350)]]))
        #expect(points(result) == [[[0, 255, 255], [0, 0, 128]]])
    }

    @Test func flatOutputHoldsTheSameStrokesAndIsReplacedOnEveryCall() throws {
        var simplifier = Simplifier()
        let first = drawing([[(0, 0), (50, 80), (100, 0), (150, 90)], [(5, 5)], [(20, 30), (20, 30)]])
        let second = drawing([[(10, 10), (20, 10)]])
        var strokes = FlatStrokes()
        try simplifier.simplify(first, into: &strokes)
        #expect(try strokes.drawing == GoogleSimplifier.simplify(first))
        #expect(strokes.pointRange(ofStroke: 1).count == 2)
        try simplifier.simplify(second, into: &strokes)
        #expect(try strokes.drawing == GoogleSimplifier.simplify(second))
        #expect(try simplifier.simplify(first) == GoogleSimplifier.simplify(first))
    }

    @Test func strokesKeepTheirOrderAndShareOneFrame() throws {
        let result = try GoogleSimplifier.simplify(drawing([[(10, 10), (20, 10)], [(10, 20), (10, 30)]]))
        #expect(points(result) == [[[0, 128], [0, 0]], [[0, 0], [128, 255]]])
    }

    @Test func roundsHalfToEven() throws {
        // y = 1 · 255 / 510 = 0.5 and y = 3 · 255 / 510 = 1.5 exactly; the end points survive RDP.
        #expect(try points(GoogleSimplifier.simplify(drawing([[(0, 0), (510, 1)]]))) == [[[0, 255], [0, 0]]])
        #expect(try points(GoogleSimplifier.simplify(drawing([[(0, 0), (510, 3)]]))) == [[[0, 255], [0, 2]]])
    }

    @Test func theKnobsScaleResampleAndSimplify() throws {
        let raw = drawing([[(0, 0), (10, 3), (20, 0)]])
        // A target of 20 keeps the input's size; ε = 3 drops the sample nearest the corner (2.9
        // from the chord)…
        #expect(
            try points(GoogleSimplifier.simplify(raw, options: SimplificationOptions(scaleTarget: 20, epsilon: 3))) == [
                [[0, 20], [0, 0]]
            ])
        // …and a smaller ε keeps the resampled point nearest the corner.
        #expect(
            try points(GoogleSimplifier.simplify(raw, options: SimplificationOptions(scaleTarget: 20, epsilon: 1))) == [
                [[0, 10, 20], [0, 3, 0]]
            ])
    }

    @Test func aOnePointStrokeBecomesTwoIdenticalPoints() throws {
        let result = try GoogleSimplifier.simplify(drawing([[(0, 0), (10, 0)], [(10, 10)]]))
        #expect(points(result) == [[[0, 255], [0, 0]], [[255, 255], [255, 255]]])
    }

    @Test func aDrawingWithoutExtentMapsToTheOrigin() throws {
        let result = try GoogleSimplifier.simplify(drawing([[(7, 7), (7, 7)], [(7, 7)]]))
        #expect(points(result) == [[[0, 0], [0, 0]], [[0, 0], [0, 0]]])
    }

    @Test func decimalCoordinatesAreHandledLikeIntegers() throws {
        let decimal = try GoogleSimplifier.simplify(drawing([[(0.5, 0.25), (50.5, 0.25), (50.5, 25.25)]]))
        let integral = try GoogleSimplifier.simplify(drawing([[(0, 0), (50, 0), (50, 25)]]))
        #expect(decimal == integral)
    }

    @Test func outputCoordinatesAreIntegersWithinTheTarget() throws {
        let wiggle = (0..<200).map { index in (Double(index) * 1.37, (Double(index) * 0.71).truncatingRemainder(dividingBy: 9)) }
        let result = try GoogleSimplifier.simplify(drawing([wiggle]))
        for stroke in result.strokes {
            for value in stroke.x + stroke.y {
                #expect(value == value.rounded() && value >= 0 && value <= 255)
            }
        }
    }

    @Test func aReusedSimplifierGivesTheSameResultAsAFreshOne() throws {
        var reused = Simplifier()
        let first = drawing([[(0, 0), (30, 40), (60, 0), (90, 40)]])
        let second = drawing([[(5, 5), (6, 9)], [(1, 1)]])
        _ = try reused.simplify(first)
        #expect(try reused.simplify(second) == GoogleSimplifier.simplify(second))
    }

    @Test func integerRoundingMatchesTheStandardLibrary() throws {
        for value in [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 127.5, 254.49999999999997, 3.7, -3.7, 0x1p52 + 1, 1e300] {
            #expect(IntegerRounding.halfToEven(value) == value.rounded(.toNearestOrEven))
        }
    }
}
