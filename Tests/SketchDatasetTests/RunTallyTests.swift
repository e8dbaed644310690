import SketchTestSupport
import Foundation
import Testing
@testable import SketchDataset
import SketchFormats

@Test func rejectingALineCountsItAsReadAndRejectedAndQuarantinesItVerbatim() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("rejected.ndjson").path
    let quarantine = try QuarantineWriter(path: path, maximumMessages: 0)
    var tally = RunTally(read: 2, written: 2)

    try tally.reject(RejectedLine(location: SourceLocation(file: "in.ndjson", line: 3), reason: "bad JSON",
                                  bytes: Array("not json".utf8)), into: quarantine)
    try quarantine.finish()

    #expect(tally == RunTally(read: 3, written: 2, rejected: 1))
    #expect(tally.isReconciled)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json\n")
}

@Test func quarantineKeepsRejectedLinesVerbatimAndTheTallyReconciles() throws {
    let directory = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("q.ndjson").path
    let quarantine = try QuarantineWriter(path: path, maximumMessages: 0)
    try quarantine.add(RejectedLine(location: SourceLocation(file: "f", line: 3), reason: "stroke 2: x has 3 values but y has 2", bytes: Array("bad 1".utf8)))
    try quarantine.add(RejectedLine(location: SourceLocation(file: "f", line: 9), reason: "stroke 12: x has 1 values but y has 0", bytes: Array("bad 2".utf8)))
    #expect(!FileManager.default.fileExists(atPath: path))
    try quarantine.finish()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "bad 1\nbad 2\n")
    #expect(quarantine.countsByReason == ["stroke N: x has N values but y has N": 2])
    let tally = RunTally(read: 5, written: 3, rejected: 2)
    #expect(tally.isReconciled)
    #expect(tally.description == "read 5 = written 3 + rejected 2")
    #expect(!RunTally(read: 5, written: 3, rejected: 1).isReconciled)
}
