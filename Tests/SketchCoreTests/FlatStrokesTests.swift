import Testing

@testable import SketchCore

/// Flat storage keeps a drawing's times beside its points once a stroke has them: 0 for the points
/// of strokes without, and the drawing back with its times when every stroke has them.
@Suite struct FlatStrokesTests {
    private let partlyTimed = Drawing(strokes: [
        Stroke(x: [1, 2], y: [3, 4]), Stroke(x: [5], y: [6], t: [70]), Stroke(x: [8, 9], y: [10, 11]),
    ])

    @Test func timesAreKeptWhenAskedWithZerosForTheStrokesWithout() {
        var flat = FlatStrokes()
        flat.replaceContents(with: partlyTimed, keepingTimes: true)
        #expect(flat.x == [1, 2, 5, 8, 9] && flat.y == [3, 4, 6, 10, 11] && flat.strokeEnds == [2, 3, 5])
        #expect(flat.t == [0, 0, 70, 0, 0] && flat.timedStrokeCount == 1 && !flat.isTimed)
        #expect(flat.drawing == Drawing(strokes: partlyTimed.strokes.map { Stroke(x: $0.x, y: $0.y) }))
        flat.replaceContents(with: partlyTimed)
        #expect(flat.t.isEmpty && flat.timedStrokeCount == 0 && flat.x == [1, 2, 5, 8, 9])
    }

    @Test func aDrawingWhoseStrokesAllHaveTimesComesBackWithThem() {
        let timed = Drawing(strokes: [Stroke(x: [1, 2], y: [3, 4], t: [0, 16]), Stroke(x: [5], y: [6], t: [40])])
        var flat = FlatStrokes()
        flat.replaceContents(with: timed, keepingTimes: true)
        #expect(flat.isTimed && flat.t == [0, 16, 40] && flat.drawing == timed)
    }

    @Test func pointsAppendedAfterATimedStrokeGetZeroTimes() {
        var flat = FlatStrokes()
        [1.0].withUnsafeBufferPointer { one in flat.appendStroke(x: one, y: one, t: one) }
        flat.appendPoints(count: 2) { x, y in
            x.update(repeating: 2)
            y.update(repeating: 3)
        }
        flat.endStroke(points: 2)
        [4.0].withUnsafeBufferPointer { four in flat.appendStroke(x: four, y: four) }
        #expect(flat.x == [1, 2, 2, 4] && flat.t == [1, 0, 0, 0] && flat.timedStrokeCount == 1 && flat.strokeEnds == [1, 3, 4])
        flat.removeAll()
        #expect(flat.t.isEmpty && flat.timedStrokeCount == 0 && flat.strokeCount == 0 && !flat.isTimed)
    }

    @Test func strokesEndedTogetherAreTheStrokesEndedOneByOne() {
        // Points appended as zeros and filled, after a stroke already held, then cut into strokes
        // (an empty one among them) at once and one by one.
        var together = FlatStrokes()
        var oneByOne = FlatStrokes()
        for flat in [0, 1] {
            var strokes = flat == 0 ? together : oneByOne
            strokes.replaceContents(with: Drawing(strokes: [Stroke(x: [1], y: [2])]))
            strokes.appendPoints(count: 5) { x, y in
                for index in 0..<5 { (x[index], y[index]) = (Double(10 + index), Double(20 + index)) }
            }
            if flat == 0 {
                [2, 2, 5].withUnsafeBufferPointer { strokes.endStrokes(at: $0) }
                together = strokes
            } else {
                for count in [2, 0, 3] { strokes.endStroke(points: count) }
                oneByOne = strokes
            }
        }
        #expect(together == oneByOne)
        #expect(together.x == [1, 10, 11, 12, 13, 14] && together.y == [2, 20, 21, 22, 23, 24] && together.strokeEnds == [1, 3, 3, 6])
    }
}
