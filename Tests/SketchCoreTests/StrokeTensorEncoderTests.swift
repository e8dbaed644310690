import Testing

@testable import SketchCore

/// Rows of a tensor as triples, for readable expectations.
private func rows(_ tensor: StrokeTensor) -> [[Float]] {
    stride(from: 0, to: tensor.values.count, by: 3).map { Array(tensor.values[$0..<($0 + 3)]) }
}

// Two strokes: (0,0) (10,5) | (20,10) (20,0). x range 20, y range 10.
private let twoStrokes = Drawing(strokes: [
    Stroke(x: [0, 10], y: [0, 5]),
    Stroke(x: [20, 20], y: [10, 0]),
])

@Test func variableLengthGivesNormalisedDeltasWithNextPointsEndOfStroke() {
    // Normalised points: (0,0,0) (0.5,0.5,1) (1,1,0) (1,0,1).
    let tensor = StrokeTensorEncoder.encode(twoStrokes, options: .tfTutorial)
    #expect(rows(tensor) == [[0.5, 0.5, 1], [0.5, 0.5, 0], [0, -1, 1]])
}

@Test func bookRecipePadsZerosAtTheFrontTo75Rows() {
    let tensor = StrokeTensorEncoder.encode(twoStrokes, options: .book)
    #expect(tensor.rows == 75)
    let r = rows(tensor)
    #expect(r[0..<72].allSatisfy { $0 == [0, 0, 0] })
    #expect(Array(r[72...]) == [[0.5, 0.5, 1], [0.5, 0.5, 0], [0, -1, 1]])
}

@Test func backPaddingPutsZerosAfterTheData() {
    let tensor = StrokeTensorEncoder.encode(twoStrokes, options: StrokeTensorOptions(length: 5, paddingSide: .back))
    #expect(rows(tensor) == [[0.5, 0.5, 1], [0.5, 0.5, 0], [0, -1, 1], [0, 0, 0], [0, 0, 0]])
}

@Test func truncationKeepsTheFirstRowsByDefaultAndTheLastOnRequest() {
    // 101 points on a line: x = 0...100, one stroke; every delta is (0.01, 0, 0) except the last (…, 1).
    let line = Drawing(strokes: [Stroke(x: (0...100).map(Double.init), y: [Double](repeating: 3, count: 101))])
    let keepFirst = rows(StrokeTensorEncoder.encode(line, options: StrokeTensorOptions(length: 75)))
    #expect(keepFirst.count == 75)
    #expect(keepFirst.allSatisfy { $0[2] == 0 && $0[1] == 0 })
    #expect(keepFirst[0][0] == Float(1) / 100 - 0)
    let keepLast = rows(StrokeTensorEncoder.encode(line, options: StrokeTensorOptions(length: 75, truncationSide: .front)))
    #expect(keepLast.count == 75)
    #expect(keepLast.last == [Float(100) / 100 - Float(99) / 100, 0, 1])
    #expect(keepLast[0][0] == Float(26) / 100 - Float(25) / 100)
}

@Test func zeroRangeAxisIsDividedByOne() {
    // All points share x = 7: x range 0 → scale 1, so x deltas are 0 (not NaN).
    let vertical = Drawing(strokes: [Stroke(x: [7, 7, 7], y: [0, 4, 8])])
    #expect(rows(StrokeTensorEncoder.encode(vertical, options: .tfTutorial)) == [[0, 0.5, 0], [0, 0.5, 1]])
}

@Test func onePointStrokesContributeARowEndingTheStroke() {
    // (0,0) | (4,4) | (8,0): each stroke is one point, so every point ends a stroke.
    let dots = Drawing(strokes: [Stroke(x: [0], y: [0]), Stroke(x: [4], y: [4]), Stroke(x: [8], y: [0])])
    #expect(rows(StrokeTensorEncoder.encode(dots, options: .tfTutorial)) == [[0.5, 1, 1], [0.5, -1, 1]])
}

@Test func drawingsWithFewerThanTwoPointsHaveNoDeltaRows() {
    let single = Drawing(strokes: [Stroke(x: [5], y: [5])])
    #expect(StrokeTensorEncoder.encode(single, options: .tfTutorial).rows == 0)
    #expect(StrokeTensorEncoder.encode(Drawing(strokes: []), options: .book).values == [Float](repeating: 0, count: 225))
}

@Test func arithmeticIsFloat32InNumpysOrder() {
    // x = 0, 1, 3 (range 3): float32(1)/3 and float32(3)/3 − float32(1)/3, not the float64 values rounded.
    let d = Drawing(strokes: [Stroke(x: [0, 1, 3], y: [0, 0, 0])])
    let r = rows(StrokeTensorEncoder.encode(d, options: .tfTutorial))
    let third = Float(1) / Float(3)
    #expect(r[0][0] == third)
    #expect(r[1][0] == Float(1) - third)
    #expect(r[1][0] != Float(2.0 / 3.0))  // float64 arithmetic rounded at the end would give this
}

@Test func appendingEncodingMatchesTheStandaloneOne() {
    var buffer: [Float] = [9]
    StrokeTensorEncoder.encode(twoStrokes, options: .book, appendingTo: &buffer)
    #expect(buffer == [9] + StrokeTensorEncoder.encode(twoStrokes, options: .book).values)
}
