import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchPipeline

@Suite struct SimplifyJobTests {
    @Test func simplifiedOutputReadsBackAsTheSimplifiedRecordsAndTheTallyReconciles() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.ndjson")
        let rawLines = try String(
            contentsOf: TestSupport.repositoryRoot
                .appendingPathComponent("SampleData/quickdraw/raw/cat.ndjson"), encoding: .utf8
        )
        .split(separator: "\n").prefix(5).map(String.init)
        let badLine = #"{"word":"cat","drawing":[[[1,2],[3]]]}"#
        try (rawLines[0..<2] + [badLine] + rawLines[2...]).joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)

        let output = directory.appendingPathComponent("out.ndjson").path
        let quarantine = directory.appendingPathComponent("out.rejected.ndjson").path
        let result = try SimplifyJob(
            reader: DrawingSource(inputs: [input.path]), outputPath: output,
            quarantinePath: quarantine, showsProgress: false
        ).run()
        #expect(result.tally == RecordCounts(read: 6, written: 5, rejected: 1))
        #expect(try String(contentsOfFile: quarantine, encoding: .utf8) == badLine + "\n")

        let (raw, _) = try TestSupport.readAll([input.path])
        let (written, rejected) = try TestSupport.readAll([output])
        #expect(rejected.isEmpty)
        #expect(written.count == 5)
        for (original, simplified) in zip(raw, written) {
            var expected = original
            expected.drawing = try GoogleSimplifier.simplify(original.drawing)
            #expect(simplified == expected)
        }
    }

    @Test func sampleDataParityStaysAboveTheFloor() throws {
        let root = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw")
        let (official, _) = try TestSupport.readAll([root.appendingPathComponent("simplified").path])
        let byKey = Dictionary(official.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
        let (raw, _) = try TestSupport.readAll([root.appendingPathComponent("raw").path])
        var comparison = ParityComparison()
        var simplifier = Simplifier()
        for record in raw {
            guard let match = byKey[record.keyID] else { continue }
            comparison.add(
                keyID: record.keyID, word: match.word, ours: try simplifier.simplify(record.drawing),
                official: match.drawing)
        }
        #expect(comparison.pairs == 120)
        // The default rule reproduces 5,555 of the 5,556 shared pairs; all 120 sample pairs match.
        #expect(comparison.exactRate >= 0.99, "exact rate \(comparison.exactRate)")
        #expect(comparison.samePointCountRate >= 0.99)
        #expect(comparison.deviationHistogram.values.reduce(0, +) == comparison.pairs)
    }

    @Test func parityComparisonClassifiesMisses() throws {
        var comparison = ParityComparison(worstLimit: 2)
        let base = Drawing(strokes: [Stroke(x: [0, 10], y: [0, 10])])
        comparison.add(keyID: "a", word: "w", ours: base, official: base)
        comparison.add(keyID: "b", word: "w", ours: Drawing(strokes: [Stroke(x: [0, 11], y: [0, 10])]), official: base)
        comparison.add(keyID: "c", word: "v", ours: Drawing(strokes: [Stroke(x: [0, 5, 10], y: [0, 5, 10])]), official: base)
        #expect(comparison.exact == 1)
        #expect(comparison.samePointCount == 2)
        #expect(comparison.deviationHistogram == ["0": 1, "1": 1, "point count differs": 1])
        #expect(comparison.worst.map(\.keyID) == ["c", "b"])
        #expect(comparison.worst.map(\.kind) == ["point count", "coordinates"])
    }
}
