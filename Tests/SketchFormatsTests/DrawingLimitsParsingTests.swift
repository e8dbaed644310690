import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

/// The bounds of `DrawingLimits` as the NDJSON parser enforces them.
@Suite struct DrawingLimitsParsingTests {
    private func line(x: String, y: String = "[1,2]", t: String? = nil) -> String {
        let arrays = [x, y] + (t.map { [$0] } ?? [])
        return #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[["#
            + arrays.joined(separator: ",") + "]]}"
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try TestSupport.parse(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [
        "1e308", "-1e308", "1.7976931348623157e308", "1e400", "-1e400", "1e99999999999",
        "1000000001", "-1000000000.5", "999999999999999", "1e10",
    ])
    func extremeCoordinatesAreOutOfRange(value: String) {
        let got = reason(line(x: "[0,\(value)]"))
        #expect(
            got?.hasPrefix("coordinate out of range: stroke 1 x position 2 is not finite or beyond ±1e9") == true, "got: \(got ?? "nil")")
    }

    @Test(arguments: ["NaN", "nan", "Infinity", "-Infinity", "inf"])
    func nonNumericLiteralsAreNotNumbers(value: String) {
        #expect(reason(line(x: "[0,\(value)]"))?.hasPrefix("stroke 1 x: non-numeric value at position 2") == true)
    }

    @Test func tinyNegativeZeroAndBoundaryValuesAreAccepted() throws {
        let record = try TestSupport.parse(line(x: "[1e-320,-0,1000000000,-1e9,1e-99999999999]", y: "[0,0,0,0,0]"))
        let x = record.drawing.strokes[0].x
        let subnormal = try #require(Double("1e-320"))  // the literal 1e-320 would warn that it loses precision
        #expect(x == [subnormal, 0, 1e9, -1e9, 0])
        #expect(x[1].sign == .minus)
    }

    @Test func timestampsHaveTheirOwnWiderBound() throws {
        #expect(try TestSupport.parse(line(x: "[0,1]", t: "[0,999999999999999]")).drawing.strokes[0].t == [0, 999_999_999_999_999])
        #expect(reason(line(x: "[0,1]", t: "[0,1e16]"))?.hasPrefix("coordinate out of range: stroke 1 t position 2") == true)
        var parser = QuickDrawLineParser(keepsTimestamps: false)
        #expect(throws: FormatError.self) { try parser.parse(Array(line(x: "[0,1]", t: "[0,1e16]").utf8)) }
        #expect(throws: FormatError.self) { try parser.parse(Array(line(x: "[0,1]", t: "[0,9999999999999999]").utf8)) }
    }

    @Test func aDrawingWithTooManyPointsIsRejectedWhileReading() {
        let count = DrawingLimits.maximumPoints + 1
        let values = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
        let got = reason(line(x: values, y: values))
        #expect(
            got?.hasPrefix("too many points: stroke 1 x goes past \(DrawingLimits.maximumPoints) points") == true, "got: \(got ?? "nil")")
    }

    @Test func pointsAreCountedOverAllStrokes() {
        let half = DrawingLimits.maximumPoints / 2 + 1
        let values = "[" + Array(repeating: "1", count: half).joined(separator: ",") + "]"
        let stroke = "[\(values),\(values)]"
        let text =
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["#
            + stroke + "," + stroke + "]}"
        #expect(reason(text)?.hasPrefix("too many points: stroke 2 x") == true)
    }

    @Test func aDrawingWithTooManyStrokesIsRejected() {
        let strokes = Array(repeating: "[[1],[1]]", count: DrawingLimits.maximumStrokes + 1).joined(separator: ",")
        let text = #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["# + strokes + "]}"
        #expect(reason(text)?.hasPrefix("too many strokes: more than \(DrawingLimits.maximumStrokes)") == true)
    }

    @Test func theMaximumDrawingIsAccepted() throws {
        let strokes = Array(repeating: "[[1,2],[3,4]]", count: DrawingLimits.maximumStrokes).joined(separator: ",")
        let text = #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["# + strokes + "]}"
        #expect(try TestSupport.parse(text).drawing.strokes.count == DrawingLimits.maximumStrokes)
    }
}
