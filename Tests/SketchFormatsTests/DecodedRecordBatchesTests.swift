import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

/// `DecodedRecordBatches`: how the engine's reading thread turns `.bin` and stroke-3 inputs into
/// batches of NDJSON lines.
@Suite struct DecodedRecordBatchesTests {
    static func entries(_ reader: DecodedRecordBatches) -> [(line: Int, kind: RawLineBatch.Kind, bytes: [UInt8])] {
        var all: [(Int, RawLineBatch.Kind, [UInt8])] = []
        while let batch = reader.nextBatch() {
            for (index, entry) in batch.entries.enumerated() {
                all.append((entry.lineInChunk, entry.kind, batch.withLine(index) { Array($0) }))
            }
        }
        return all
    }

    @Test func binRecordsBecomeTheirSimplifiedNDJSONLinesNumberedByRecordAndATruncatedOneIsRejected() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bytes)
        let firstLength = bytes.count
        try GoogleBinaryWriter.encode(GoogleBinaryTests.cat, into: &bytes)
        let path = directory.appendingPathComponent("cat.bin").path
        try Data(bytes.dropLast(3)).write(to: URL(fileURLWithPath: path))

        let entries = Self.entries(DecodedRecordBatches(path: path, format: .bin, word: "cat", chunk: 0, hashing: true, batchLines: 1))
        #expect(entries.count == 2)
        #expect(entries[0].line == 1)
        var expected: [UInt8] = []
        SimplifiedNDJSONWriter.encode(GoogleBinaryTests.dog, into: &expected)
        #expect(entries[0].bytes == expected)
        #expect(entries[1].line == 2)
        guard case .failed(let reason) = entries[1].kind else {
            Issue.record("expected a rejected record")
            return
        }
        #expect(reason.hasPrefix("record at byte offset \(firstLength): truncated"))
        #expect(String(decoding: entries[1].bytes, as: UTF8.self).hasPrefix(#"{"byte_offset":\#(firstLength),"#))
    }

    @Test func anUndecodableStroke3FileIsOneSourceError() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("broken.npz").path
        try Data([0x50, 0x4B, 3, 4, 0, 0, 1, 2]).write(to: URL(fileURLWithPath: path))
        let entries = Self.entries(DecodedRecordBatches(path: path, format: .stroke3, word: "broken", chunk: 0, hashing: false))
        #expect(entries.count == 1)
        guard case .sourceError(0, _) = entries[0].kind else {
            Issue.record("expected a source error")
            return
        }
    }

    @Test func theRecordLimitCountsRecordsOfTheInput() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        for _ in 0..<5 { try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bytes) }
        let path = directory.appendingPathComponent("dog.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let entries = Self.entries(DecodedRecordBatches(path: path, format: .bin, word: "dog", chunk: 0, hashing: false, recordLimit: 3))
        #expect(entries.map(\.line) == [1, 2, 3])
    }
}
