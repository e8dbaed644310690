import SketchCore
import SketchFormats
import Testing

@testable import SketchPipeline

@Suite struct InputFormatTests {
    private let large = Drawing(strokes: [Stroke(x: [0, 70_000], y: [0, 10])])

    private func record(_ drawing: Drawing, kind: DrawingKind? = nil) -> SketchRecord {
        SketchRecord(word: "cat", countryCode: "US", timestamp: "", recognized: true, keyID: "1", drawing: drawing, kind: kind)
    }

    @Test func drawingsUsedAsSimplifiedMustStayWithinTheSimplifiedBound() throws {
        var simplifier = Simplifier()
        #expect {
            _ = try InputFormat.simplified.prepare(record(large), readAs: .ndjson, with: &simplifier)
        } throws: { error in
            let limit = error as? DrawingLimitError
            return limit?.kind == .coordinateOutOfRange && limit?.reason.hasPrefix("coordinate out of range: stroke 1 has 70000.0") == true
        }
        let small = Drawing(strokes: [Stroke(x: [0, 65_535], y: [-65_535, 3])])
        #expect(try InputFormat.simplified.prepare(record(small), readAs: .ndjson, with: &simplifier) == small)
    }

    @Test func drawingsBeyondTheSimplifiedRangeAreSimplifiedUnderAuto() throws {
        var simplifier = Simplifier()
        let prepared = try InputFormat.auto.prepare(record(large), readAs: .ndjson, with: &simplifier)
        #expect(prepared.strokes.flatMap { $0.x + $0.y }.allSatisfy { (0...255).contains($0) })
    }

    @Test func autoTakesTheKindARecordWasDecodedWithNotItsDrawingAfterTimesWereDropped() throws {
        // In range and integral once `t` is dropped: only the decoded kind says it was raw.
        var parser = QuickDrawLineParser(keepsTimestamps: false)
        let raw = try parser.parse(
            Array(
                #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,2],[3,4],[0,16]]]}"#
                    .utf8))
        #expect(raw.drawing.strokes[0].t.isEmpty)
        #expect(InputFormat.auto.needsSimplification(raw, readAs: .ndjson))
        #expect(InputFormat.auto.needsSimplification(raw, readAs: .csv))
        #expect(!InputFormat.simplified.needsSimplification(raw, readAs: .ndjson))
    }

    @Test func autoTakesBinAsSimplifiedSVGAsRawAndStroke3AsItIs() {
        let simplified = record(Drawing(strokes: [Stroke(x: [0, 255], y: [3, 4])]))
        let offRange = record(large)
        #expect(!InputFormat.auto.needsSimplification(simplified, readAs: .bin))
        #expect(InputFormat.auto.needsSimplification(simplified, readAs: .svg))
        #expect(!InputFormat.auto.needsSimplification(offRange, readAs: .stroke3))
        #expect(InputFormat.auto.needsSimplification(offRange, readAs: .ndjson))
        #expect(!InputFormat.auto.needsSimplification(simplified, readAs: .ndjson))
        #expect(InputFormat.raw.needsSimplification(simplified, readAs: .bin))
    }
}
