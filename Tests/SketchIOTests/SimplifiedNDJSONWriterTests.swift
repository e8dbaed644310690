import Foundation
import SketchCore
import Testing
@testable import SketchIO

@Suite struct SimplifiedNDJSONWriterTests {
    @Test func writesGooglesKeyOrderCompactlyWithIntegerCoordinates() {
        let record = SketchRecord(word: "cat", countryCode: "US", timestamp: "2017-03-08 21:12:07.26604 UTC",
                                  recognized: false, keyID: "42",
                                  drawing: Drawing(strokes: [Stroke(x: [0, 255], y: [3, 4]), Stroke(x: [7], y: [8])]))
        var bytes: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) ==
            #"{"word":"cat","countrycode":"US","timestamp":"2017-03-08 21:12:07.26604 UTC","recognized":false,"key_id":"42","drawing":[[[0,255],[3,4]],[[7],[8]]]}"#)
    }

    @Test func escapesStringsSoTheyReadBackUnchanged() throws {
        let word = "a \"quoted\" \\ word\n\u{1}é"
        let record = SketchRecord(word: word, countryCode: "US", timestamp: "t", recognized: true, keyID: "1",
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
            simplified.drawing = GoogleSimplifier.simplify(record.drawing)
            var bytes: [UInt8] = []
            SimplifiedNDJSONWriter.encode(simplified, into: &bytes)
            if String(decoding: bytes, as: UTF8.self) == officialLine { identical += 1 }
        }
        #expect(identical == 20, "only \(identical) of 20 airplane lines are byte-identical")
    }
}
