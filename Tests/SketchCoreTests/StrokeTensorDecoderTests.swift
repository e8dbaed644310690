import Testing

@testable import SketchCore

/// `drawing`'s points after the recipe's normalisation, moved so that the first point is at (0, 0):
/// what decoding its tensor must give back.
private func normalisedFromFirstPoint(_ drawing: Drawing) -> [[(Double, Double)]] {
    let xs = drawing.strokes.flatMap(\.x)
    let ys = drawing.strokes.flatMap(\.y)
    let scaleX = max(xs.max()! - xs.min()!, 1)
    let scaleY = max(ys.max()! - ys.min()!, 1)
    return drawing.strokes.map { stroke in
        zip(stroke.x, stroke.y).map { ((($0 - xs[0]) / scaleX), (($1 - ys[0]) / scaleY)) }
    }
}

private func points(_ drawing: Drawing) -> [[(Double, Double)]] {
    drawing.strokes.map { Array(zip($0.x, $0.y)) }
}

private func expectClose(_ decoded: Drawing, _ original: Drawing) {
    let got = points(decoded)
    let want = normalisedFromFirstPoint(original)
    #expect(got.map(\.count) == want.map(\.count))
    for (gotStroke, wantStroke) in zip(got, want) {
        for (g, w) in zip(gotStroke, wantStroke) {
            #expect(abs(g.0 - w.0) < 1e-6 && abs(g.1 - w.1) < 1e-6)
        }
    }
}

// Three strokes, the last a single point: (0,0) (10,5) (12,9) | (20,10) (20,0) | (4,8).
private let threeStrokes = Drawing(strokes: [
    Stroke(x: [0, 10, 12], y: [0, 5, 9]),
    Stroke(x: [20, 20], y: [10, 0]),
    Stroke(x: [4], y: [8]),
])

@Test func decodingTheBookTensorGivesBackTheStrokesInNormalisedUnits() {
    let tensor = StrokeTensorEncoder.encode(threeStrokes, options: .book)
    expectClose(StrokeTensorDecoder.drawing(from: tensor.values[...])!, threeStrokes)
}

@Test func decodingSkipsPaddingAtEitherEndAndVariableLengthNeedsNone() {
    for options in [StrokeTensorOptions(length: 20, paddingSide: .back), .tfTutorial] {
        let tensor = StrokeTensorEncoder.encode(threeStrokes, options: options)
        expectClose(StrokeTensorDecoder.drawing(from: tensor.values[...])!, threeStrokes)
    }
}

@Test func aTruncatedTensorDecodesToTheDrawingsFirstPoints() {
    let tensor = StrokeTensorEncoder.encode(threeStrokes, options: StrokeTensorOptions(length: 3))
    let decoded = StrokeTensorDecoder.drawing(from: tensor.values[...])!
    #expect(decoded.strokes.map(\.count) == [3, 1])  // the first stroke, then the second's first point
}

@Test func nonFiniteValuesOrARaggedRowAreRefused() {
    #expect(StrokeTensorDecoder.drawing(from: [0.5, .nan, 1][...]) == nil)
    #expect(StrokeTensorDecoder.drawing(from: [.infinity, 0, 1][...]) == nil)
    #expect(StrokeTensorDecoder.drawing(from: [0.5, 0.5][...]) == nil)
}

@Test func anAllZeroTensorIsOnePoint() {
    let decoded = StrokeTensorDecoder.drawing(from: [Float](repeating: 0, count: 225)[...])!
    #expect(decoded.strokes == [Stroke(x: [0], y: [0])])
}
