import SketchCore
import Testing

@testable import SketchPipeline

@Suite struct InputFormatTests {
    private let large = Drawing(strokes: [Stroke(x: [0, 70_000], y: [0, 10])])

    @Test func drawingsUsedAsSimplifiedMustStayWithinTheSimplifiedBound() throws {
        var simplifier = Simplifier()
        #expect {
            _ = try InputFormat.simplified.prepare(large, with: &simplifier)
        } throws: { error in
            (error as? DrawingLimitError)?.reason.hasPrefix("coordinate out of range: stroke 1 has 70000.0") == true
        }
        let small = Drawing(strokes: [Stroke(x: [0, 65_535], y: [-65_535, 3])])
        #expect(try InputFormat.simplified.prepare(small, with: &simplifier) == small)
    }

    @Test func drawingsBeyondTheSimplifiedRangeAreSimplifiedUnderAuto() throws {
        var simplifier = Simplifier()
        let prepared = try InputFormat.auto.prepare(large, with: &simplifier)
        #expect(prepared.strokes.flatMap { $0.x + $0.y }.allSatisfy { (0...255).contains($0) })
    }
}
