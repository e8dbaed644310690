import SketchCore
import Testing

@Suite struct DrawingKindTests {
    @Test("a drawing with timestamps is raw")
    func timestampsMeanRaw() {
        let drawing = Drawing(strokes: [Stroke(x: [1, 2], y: [3, 4], t: [0, 16])])
        #expect(DrawingKind.detect(drawing) == .raw)
    }

    @Test("a coordinate outside 0...255 means raw even without timestamps")
    func outOfRangeMeansRaw() {
        #expect(DrawingKind.detect(Drawing(strokes: [Stroke(x: [0, 256], y: [0, 10])])) == .raw)
        #expect(DrawingKind.detect(Drawing(strokes: [Stroke(x: [0, 10], y: [-1, 10])])) == .raw)
    }

    @Test("a coordinate that is not an integer means raw even in 0...255 and without timestamps")
    func fractionalMeansRaw() {
        #expect(DrawingKind.detect(Drawing(strokes: [Stroke(x: [0, 10.5], y: [0, 10])])) == .raw)
        #expect(DrawingKind.detect(Drawing(strokes: [Stroke(x: [0, 10], y: [0.25, 10])])) == .raw)
    }

    @Test("integer coordinates in 0...255 without timestamps are simplified, as is an empty drawing")
    func inRangeMeansSimplified() {
        #expect(DrawingKind.detect(Drawing(strokes: [Stroke(x: [0, 255], y: [255, 0])])) == .simplified)
        #expect(DrawingKind.detect(Drawing(strokes: [])) == .simplified)
    }

    @Test("a simplified coordinate is an integer in 0...255, whatever the bits: not NaN, not infinite, not beside the bounds")
    func simplifiedCoordinatesAreTheIntegersFromZeroTo255() {
        for value in Self.simplified {
            #expect(DrawingKind.isSimplifiedCoordinate(value), "\(value)")
        }
        for value in Self.notSimplified {
            #expect(!DrawingKind.isSimplifiedCoordinate(value), "\(value)")
        }
    }

    @Test("an array of coordinates is simplified exactly when each of its values is")
    func anArrayIsSimplifiedExactlyWhenEachValueIs() {
        for value in Self.simplified + Self.notSimplified {
            for values in [[value], [0, value, 255], [value, 17, 17, 17, 17, 17, 17, 17, 17]] {
                let simplified = values.withUnsafeBufferPointer(DrawingKind.areSimplifiedCoordinates)
                #expect(simplified == DrawingKind.isSimplifiedCoordinate(value), "\(values)")
            }
        }
    }

    private static let simplified: [Double] = [0, -0.0, 1, 63, 64, 127, 128, 254, 255]
    private static let notSimplified: [Double] = [
        -1, -0.5, -Double.ulpOfOne, 0.5, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1e-300, -1e-300,
        63.75, 127.5, -127.5, 254.5, 255.nextUp, 255.5, 256, -255, 0x1p52, -0x1p52, 1e16, -1e16, 1e300, -1e300,
        .infinity, -.infinity, .nan, -.nan, .signalingNaN, 255.nextDown, Double.greatestFiniteMagnitude,
    ]
}
