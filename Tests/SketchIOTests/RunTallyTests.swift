import Foundation
import Testing
@testable import SketchIO

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
