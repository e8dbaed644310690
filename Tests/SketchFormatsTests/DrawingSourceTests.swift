import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct DrawingSourceTests {
    @Test func aDirectoryMixingNDJSONBinAndStroke3IsReadByContentWhateverTheNames() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[2]]]}"#
        try Data((line + "\n").utf8).write(to: directory.appendingPathComponent("a.ndjson"))
        var bin: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bin)
        // A .bin named like NDJSON: content decides, the word still comes from the name.
        try Data(bin).write(to: directory.appendingPathComponent("b dog.ndjson"))
        let npz = try Stroke3NPZ.encode([(.train, [NumericArray(rows: 2, columns: 3, values: [3, 4, 0, 1, 1, 1])])], path: "c.npz")
        try Data(npz).write(to: directory.appendingPathComponent("c.npz"))
        try Data("not a drawing file".utf8).write(to: directory.appendingPathComponent("notes.txt"))

        let source = try DrawingSource(inputs: [directory.path])
        var records: [SketchRecord] = []
        try source.read(onRecord: { record, _ in records.append(record) }, onRejected: { Issue.record("rejected \($0)") })
        #expect(records.map(\.word) == ["cat", "b dog.ndjson", "c"])
        #expect(records.map(\.keyID) == ["1", "42", "c.npz#train#0"])
        #expect(records[2].drawing == Drawing(strokes: [Stroke(x: [3, 4], y: [4, 5])]))
    }

    @Test func aFileOfNoKnownFormatIsAnErrorNamingIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("x.ndjson").path
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FormatError.self) { try DrawingSource.detectFormat(path: path) }
        #expect(error?.description.contains("cannot tell the format of \(path)") == true)
    }
}
