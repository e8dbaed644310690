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
        for value in [0, -0.0, 1, 128, 254, 255] as [Double] {
            #expect(DrawingKind.isSimplifiedCoordinate(value), "\(value)")
        }
        let notSimplified: [Double] = [
            -1, -0.5, -Double.ulpOfOne, 0.5, Double.leastNonzeroMagnitude, 254.5, 255.nextUp, 255.5, 256, 1e300,
            .infinity, -.infinity, .nan, -.nan, .signalingNaN, 255.nextDown,
        ]
        for value in notSimplified {
            #expect(!DrawingKind.isSimplifiedCoordinate(value), "\(value)")
        }
    }
}
