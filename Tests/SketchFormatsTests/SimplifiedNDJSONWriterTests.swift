import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct SimplifiedNDJSONWriterTests {
    @Test func writesGooglesKeyOrderCompactlyWithIntegerCoordinates() throws {
        let record = SketchRecord(
            word: "cat", countryCode: "US", timestamp: "2017-03-08 21:12:07.26604 UTC",
            recognized: false, keyID: "42",
            drawing: Drawing(strokes: [Stroke(x: [0, 255], y: [3, 4]), Stroke(x: [7], y: [8])]))
        var bytes: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, into: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"word":"cat","countrycode":"US","timestamp":"2017-03-08 21:12:07.26604 UTC","recognized":false,"key_id":"42","drawing":[[[0,255],[3,4]],[[7],[8]]]}"#
        )
    }

    @Test func integersOfEveryLengthAndSignAreWrittenInFullAndOtherValuesExactly() throws {
        let values: [Double] = [0, 9, 10, 255, -1, -10, 1e15, 9_223_372_036_854_774_784, -9_223_372_036_854_775_808, 2.5, 3.5]
        let record = SketchRecord(
            word: "w", countryCode: "US", timestamp: "t", recognized: true, keyID: "1",
            drawing: Drawing(strokes: [Stroke(x: values, y: values)]))
        var bytes: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, into: &bytes)
        let expected = "[0,9,10,255,-1,-10,1000000000000000,9223372036854774784,-9223372036854775808,2.5,3.5]"
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix(#""drawing":[["# + expected + "," + expected + "]]}"))
    }

    @Test func flatStrokesAreWrittenLikeTheSameDrawing() throws {
        let raw = Drawing(strokes: [
            Stroke(x: [3, 40, 90, 20], y: [7, 80, 5, 60]), Stroke(x: [1], y: [2]),
            Stroke(x: [10, 200, 30], y: [100, 0, 250]),
        ])
        let record = SketchRecord(word: "w", countryCode: "US", timestamp: "t", recognized: true, keyID: "1", drawing: raw)
        var simplifier = Simplifier()
        var strokes = FlatStrokes()
        try simplifier.simplify(raw, into: &strokes)
        var flat: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, strokes: strokes, into: &flat)
        var viaDrawing: [UInt8] = []
        var simplified = record
        simplified.drawing = try simplifier.simplify(raw)
        SimplifiedNDJSONWriter.encode(simplified, into: &viaDrawing)
        #expect(flat == viaDrawing)
        #expect(strokes.strokeCount == 3)
    }

    @Test func escapesStringsSoTheyReadBackUnchanged() throws {
        let word = "a \"quoted\" word é😀"
        let record = SketchRecord(
            word: word, countryCode: "US", timestamp: "t \\ / \"x\"", recognized: true, keyID: "1",
            drawing: Drawing(strokes: [Stroke(x: [1], y: [2])]))
        var bytes: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, into: &bytes)
        var parser = QuickDrawLineParser()
        #expect(try parser.parse(bytes) == record)
    }

    @Test func officialLinesThatWeReproduceAreByteIdenticalToGooglesFile() throws {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw")
        let (raw, _) = try TestSupport.readAll([directory.appendingPathComponent("raw/airplane.ndjson").path])
        let officialLines = try String(contentsOf: directory.appendingPathComponent("simplified/airplane.ndjson"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var identical = 0
        for (record, officialLine) in zip(raw, officialLines) {
            var simplified = record
            simplified.drawing = try GoogleSimplifier.simplify(record.drawing)
            var bytes: [UInt8] = []
            SimplifiedNDJSONWriter.encode(simplified, into: &bytes)
            if String(decoding: bytes, as: UTF8.self) == officialLine { identical += 1 }
        }
        #expect(identical == 20, "only \(identical) of 20 airplane lines are byte-identical")
    }
}
