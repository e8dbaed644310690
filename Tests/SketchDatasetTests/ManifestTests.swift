import Foundation
import SketchFormats
import SketchIO
import Testing

@testable import SketchDataset

private func sampleManifest() -> Manifest {
    let config = JSONValue.object([
        "encode": .object(["kind": .string("strokes"), "length": .number(75), "max": .null]),
        "filters": .object(["categories": .array([.string("cat"), .string("airplane")]), "recognized_only": .bool(true)]),
    ])
    return Manifest(
        pipeline: .init(name: "p", file: "Pipelines/p.yaml", config: config),
        sources: [.init(path: "a.ndjson", bytes: 3, sha256: SHA256Hasher.hash([1, 2, 3]).hexString)],
        classes: [.init(index: 0, word: "cat"), .init(index: 1, word: "airplane")],
        counts: ["train": .init(total: 2, perClass: ["cat": 1, "airplane": 1])],
        shards: [ShardFileEntry(file: "train-00000-of-00001.tfrecord", split: .train, examples: 2, bytes: 10, sha256: "ab")],
        records: .init(read: 4, written: 2, filtered: 1, rejected: 1),
        quarantine: "quarantine.ndjson")
}

@Test func manifestRoundTripsThroughItsCanonicalJSON() throws {
    let manifest = sampleManifest()
    let bytes = try manifest.encoded()
    #expect(try manifest.encoded() == bytes)
    let decoded = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
    #expect(decoded == manifest)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\"format_version\" : \(Manifest.currentFormatVersion)"))
    #expect(text.contains("\"per_class\""))
    #expect(text.hasSuffix("}\n"))
}

@Test func recordCountsReconcileOnlyWhenEveryRecordIsAccountedFor() {
    #expect(RecordCounts(read: 4, written: 2, filtered: 1, rejected: 1).isReconciled)
    #expect(!RecordCounts(read: 5, written: 2, filtered: 1, rejected: 1).isReconciled)
}

@Test func sourceEntryMeasuresSizeAndSHA256OfAFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("src-\(UUID().uuidString)").path
    let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let entry = try Manifest.SourceFileEntry.measuring(path: path)
    #expect(entry.bytes == bytes.count)
    #expect(entry.sha256 == SHA256Hasher.hash(bytes).hexString)
}

@Test func recordCountsWithoutTheNewerCountsDecodeAsZero() throws {
    let counts = try JSONDecoder().decode(
        RecordCounts.self,
        from: Data(#"{"read":3,"written":2,"filtered":0,"rejected":1}"#.utf8))
    #expect(counts == RecordCounts(read: 3, written: 2, filtered: 0, rejected: 1, sourceErrors: 0, duplicateKeyIDs: 0))
}
