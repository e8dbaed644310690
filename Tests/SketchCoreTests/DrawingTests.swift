import Testing

@testable import SketchCore

@Test func pointCountSumsAllStrokes() {
    let d = Drawing(strokes: [Stroke(x: [0, 1], y: [0, 1]), Stroke(x: [5], y: [5])])
    #expect(d.pointCount == 3)
}
