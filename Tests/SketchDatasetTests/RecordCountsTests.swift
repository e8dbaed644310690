import Foundation
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchDataset

@Test func rejectingALineCountsItAsReadAndRejectedAndQuarantinesItVerbatim() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("rejected.ndjson").path
    let quarantine = QuarantineWriter(path: path, maximumMessages: 0)
    var tally = RecordCounts(read: 2, written: 2)

    try tally.reject(
        RejectedLine(
            location: SourceLocation(file: "in.ndjson", line: 3), reason: "bad JSON",
            bytes: Array("not json".utf8)), into: quarantine)
    try quarantine.finish()

    #expect(tally == RecordCounts(read: 3, written: 2, rejected: 1))
    #expect(tally.isReconciled)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json\n")
}

@Test func quarantineKeepsRejectedLinesVerbatimAndTheTallyReconciles() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("q.ndjson").path
    let quarantine = QuarantineWriter(path: path, maximumMessages: 0)
    try quarantine.add(
        RejectedLine(
            location: SourceLocation(file: "f", line: 3), reason: "stroke 2: x has 3 values but y has 2", bytes: Array("bad 1".utf8)))
    try quarantine.add(
        RejectedLine(
            location: SourceLocation(file: "f", line: 9), reason: "stroke 12: x has 1 values but y has 0", bytes: Array("bad 2".utf8)))
    #expect(!FileManager.default.fileExists(atPath: path))
    try quarantine.finish()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "bad 1\nbad 2\n")
    #expect(quarantine.countsByReason == ["stroke N: x has N values but y has N": 2])
    let tally = RecordCounts(read: 5, written: 3, rejected: 2)
    #expect(tally.isReconciled)
    #expect(tally.description == "read 5 = written 3 + rejected 2")
    #expect(!RecordCounts(read: 5, written: 3, rejected: 1).isReconciled)
}

@Test func aSourceErrorIsCountedApartFromRecordsAndQuarantinedAsOneJSONLine() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("q.ndjson").path
    let quarantine = QuarantineWriter(path: path, maximumMessages: 0)
    var tally = RecordCounts(read: 4, written: 4)
    try tally.reject(.sourceError("in \"x\".gz", byteOffset: 1234, reason: "gzip member incorrect data check"), into: quarantine)
    try quarantine.finish()
    #expect(tally == RecordCounts(read: 4, written: 4, rejected: 0, sourceErrors: 1))
    #expect(tally.isReconciled)
    #expect(tally.description == "read 4 = written 4 + rejected 0; source errors 1")
    #expect(quarantine.countsByReason.isEmpty)
    let line = try String(contentsOfFile: path, encoding: .utf8)
    #expect(line == #"{"source_error":"in \"x\".gz","byte_offset":1234,"reason":"gzip member incorrect data check"}"# + "\n")
    let encoded = String(decoding: try JSONEncoder().encode(tally), as: UTF8.self)
    #expect(encoded.contains(#""source_errors":1"#))
}

@Test(arguments: [
    (RecordCounts(read: 3, written: 3), false, false),
    (RecordCounts(read: 3, written: 2, rejected: 1), false, true),
    (RecordCounts(read: 3, written: 3, sourceErrors: 1), false, true),
    (RecordCounts(read: 0, written: 0, sourceErrors: 1), true, true),
    (RecordCounts(read: 0, written: 0), true, true),
    (RecordCounts(read: 2, written: 0, rejected: 2), true, true),
    (RecordCounts(read: 2, written: 0, filtered: 2), true, true),
])
func aRunFailsWhenItWroteNothingOrUnderStrictWhenAnythingWasLost(tally: RecordCounts, fails: Bool, failsStrict: Bool) {
    #expect((tally.failure(strict: false) != nil) == fails)
    #expect((tally.failure(strict: true) != nil) == failsStrict)
}

@Test func aRunThatWroteNothingSaysWhy() {
    #expect(RecordCounts().failure(strict: false) == "no record could be read: the inputs hold no record")
    let rejected = RecordCounts(read: 5, written: 0, rejected: 5)
    let reasons = ["key_id N does not fit a uint64": 4, "coordinate out of range": 1]
    let why = rejected.failure(strict: false, rejectedByReason: reasons)
    #expect(why?.hasPrefix("nothing was written: all 5 record(s) were rejected") == true)
    #expect(why?.contains(#"the commonest reason: "key_id N does not fit a uint64" (4 of 5)"#) == true)
    let filtered = RecordCounts(read: 3, written: 0, filtered: 3)
    #expect(filtered.failure(strict: false) == "nothing was written: all 3 record(s) were filtered out")
}

@Test func aQuarantineWithNothingRejectedLeavesNoFileUnlessItIsADatasetsQuarantine() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let lazy = directory.appendingPathComponent("out.rejected.ndjson").path
    try QuarantineWriter(path: lazy, maximumMessages: 0).finish()
    #expect(!FileManager.default.fileExists(atPath: lazy))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)  // no temporary file either
    let dataset = directory.appendingPathComponent("quarantine.ndjson").path
    try QuarantineWriter(path: dataset, maximumMessages: 0, writesWhenEmpty: true).finish()
    #expect(try String(contentsOfFile: dataset, encoding: .utf8) == "")
}
