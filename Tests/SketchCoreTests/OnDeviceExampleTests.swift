import Foundation
import SketchCore
import Testing

// The on-device example of docs/sketchcore.md, compiled and run as it stands there; the last
// test checks that the doc's code block and this one are the same text, so swift-format leaves it as it is.
// swift-format-ignore
// BEGIN docs/sketchcore.md example
/// The model input for a drawing the user just made: one array of screen points per
/// pen-down-to-pen-up stroke → Google's simplified form → the book's 75×3 stroke tensor.
func strokeTensor(for liveStrokes: [[(x: Double, y: Double)]]) throws -> [Float] {
    let drawing = Drawing(strokes: liveStrokes.map { points in
        Stroke(x: points.map(\.x), y: points.map(\.y))
    })
    let simplified = try GoogleSimplifier.simplify(drawing)              // 0–255, Google's rule
    let tensor = StrokeTensorEncoder.encode(simplified, options: .book)  // 75 rows of (dx, dy, eos)
    return tensor.values                                                 // 225 float32, row-major
}
// END docs/sketchcore.md example

@Suite struct OnDeviceExampleTests {
    /// A square traced with a point every screen pixel, as a touch handler collects it.
    private let tracedSquare: [[(x: Double, y: Double)]] = [
        (0..<100).map { (x: 10 + Double($0), y: 10) } + (0..<100).map { (x: 110, y: 10 + Double($0)) }
            + (0..<100).map { (x: 110 - Double($0), y: 110) } + (0...100).map { (x: 10, y: 110 - Double($0)) }
    ]

    @Test func aTracedSquareBecomesFourDeltaRowsAtTheEndOfSeventyFivePaddedRows() throws {
        let values = try strokeTensor(for: tracedSquare)
        #expect(values.count == 75 * 3)
        #expect(values.prefix(71 * 3).allSatisfy { $0 == 0 })
        #expect(Array(values.suffix(4 * 3)) == [1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 1])
    }

    @Test func theDocumentationShowsExactlyThisExample() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let doc = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/sketchcore.md")
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let documentation = try String(contentsOf: doc, encoding: .utf8)
        let example = try #require(
            Self.text(
                in: source, between: "// BEGIN docs/sketchcore.md example\n",
                and: "// END docs/sketchcore.md example\n"))
        let block = try #require(Self.text(in: documentation, between: "```swift\nimport SketchCore\n\n", and: "```\n"))
        #expect(block == example)
    }

    /// The text between the first `start` and the next `end`.
    private static func text(in text: String, between start: String, and end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[from.upperBound..<to.lowerBound])
    }
}
