import Foundation
import SketchCore
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct QuickDrawReaderTests {
    static let goodLine =
        #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,2.5],[3,4],[0,10]]]}"#
    static let secondLine = #"{"word":"cat","countrycode":"FR","timestamp":"t","recognized":false,"key_id":"2","drawing":[[[7],[8]]]}"#

    /// Compresses `data` with the system `gzip` tool.
    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    @Test func readsAGzipFileAndADirectoryOfPlainAndGzipFilesInNameOrder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data((Self.secondLine + "\n").utf8).write(to: directory.appendingPathComponent("b.ndjson"))
        try Self.gzip(Data((Self.goodLine + "\n").utf8)).write(to: directory.appendingPathComponent("a.ndjson.gz"))
        try Data("ignored".utf8).write(to: directory.appendingPathComponent("notes.txt"))

        let reader = try QuickDrawReader(inputs: [directory.path])
        #expect(reader.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.ndjson.gz", "b.ndjson"])
        let (records, rejected) = try TestSupport.readAll([directory.path])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(records[0].drawing.strokes[0].x == [1, 2.5])
        #expect(rejected.isEmpty)
    }

    @Test func concatenatedGzipMembersAreAllRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("two.ndjson.gz")
        try (Self.gzip(Data((Self.goodLine + "\n").utf8)) + Self.gzip(Data((Self.secondLine + "\n").utf8))).write(to: file)
        #expect(try TestSupport.readAll([file.path]).records.map(\.keyID) == ["1", "2"])
    }

    @Test func aTruncatedGzipKeepsItsRecordsRejectsTheUnfinishedLineAndIsOneSourceError() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = (0..<200).map { _ in Self.goodLine }.joined(separator: "\n") + "\n"
        let compressed = try Self.gzip(Data(lines.utf8))
        let truncated = directory.appendingPathComponent("cut.ndjson.gz")
        try compressed.prefix(compressed.count / 2).write(to: truncated)
        let plain = directory.appendingPathComponent("after.ndjson")
        try Data((Self.secondLine + "\n").utf8).write(to: plain)

        let (records, rejected) = try TestSupport.readAll([truncated.path, plain.path])
        #expect(rejected.count == 2)
        #expect(!rejected[0].isSourceError)
        #expect(rejected[0].location == SourceLocation(file: truncated.path, line: records.count))
        #expect(Self.goodLine.utf8.starts(with: rejected[0].bytes))
        #expect(rejected[1].isSourceError)
        #expect(rejected[1].location == SourceLocation(file: truncated.path, line: 0))
        #expect(rejected[1].reason == "source error at byte 0: truncated gzip member (input ends before its end-of-stream marker)")
        #expect(records.last?.keyID == "2")
    }

    @Test func corruptGzipDataIsOneSourceErrorWithItsReason() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var compressed = try Self.gzip(Data(((0..<50).map { _ in Self.goodLine }.joined(separator: "\n") + "\n").utf8))
        for offset in 20..<60 { compressed[offset] ^= 0xA5 }
        let file = directory.appendingPathComponent("bad.ndjson.gz")
        try compressed.write(to: file)
        let (_, rejected) = try TestSupport.readAll([file.path])
        let sourceErrors = rejected.filter(\.isSourceError)
        #expect(sourceErrors.count == 1)
        #expect(sourceErrors.first?.reason.hasPrefix("source error at byte 0: corrupt gzip data") == true)
    }

    @Test func aMemberWithABadCRCKeepsItsRecordsAndTheNextMemberIsRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var first = try Self.gzip(Data((Self.goodLine + "\n" + Self.goodLine + "\n").utf8))
        first[first.count - 8] ^= 0xFF  // the CRC-32 of the trailer
        let second = try Self.gzip(Data((Self.secondLine + "\n").utf8))
        let file = directory.appendingPathComponent("crc.ndjson.gz")
        try (first + second).write(to: file)
        let (records, rejected) = try TestSupport.readAll([file.path])
        #expect(records.map(\.keyID) == ["1", "1", "2"])
        #expect(rejected.count == 1)
        #expect(rejected[0].isSourceError)
        #expect(rejected[0].reason == "source error at byte 0: gzip member incorrect data check (its records are kept)")
        let entry = try JSONSerialization.jsonObject(with: Data(rejected[0].bytes)) as? [String: Any]
        #expect(entry?["source_error"] as? String == file.path)
        #expect(entry?["byte_offset"] as? Int == 0)
    }

    @Test func aBadLengthInTheSecondMemberIsReportedAtThatMembersOffset() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.gzip(Data((Self.goodLine + "\n").utf8))
        var second = try Self.gzip(Data((Self.secondLine + "\n").utf8))
        second[second.count - 1] ^= 0x01  // the length field of the trailer
        let file = directory.appendingPathComponent("length.ndjson.gz")
        try (first + second).write(to: file)
        let (records, rejected) = try TestSupport.readAll([file.path])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(
            rejected.map(\.reason) == ["source error at byte \(first.count): gzip member incorrect length check (its records are kept)"])
    }

    @Test func aRecordOverAProcessingLimitIsQuarantinedWithItsLineAndReadingGoesOn() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("limits.ndjson")
        try Data((Self.goodLine + "\n" + Self.secondLine + "\n").utf8).write(to: file)
        var keys: [String] = []
        var rejected: [RejectedLine] = []
        try QuickDrawReader(inputs: [file.path]).read(
            onRecord: { record, _ in
                if record.keyID == "1" { throw DrawingLimitError(.tooManyResampledPoints, "test") }
                keys.append(record.keyID)
            },
            onRejected: { rejected.append($0) })
        #expect(keys == ["2"])
        #expect(rejected.map(\.reason) == ["too many resampled points: test"])
        #expect(rejected.first?.bytes == Array(Self.goodLine.utf8))
        #expect(rejected.first?.location == SourceLocation(file: file.path, line: 1))
    }

    /// An error of the caller's own, thrown from `onRecord` (a write that failed), stops the read
    /// and reaches the caller as it was thrown; only `DrawingLimitError` quarantines the record.
    @Test func anErrorThrownByTheRecordHandlerStopsTheReadAndReachesTheCaller() throws {
        struct Stop: Error, Equatable {}
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("two.ndjson")
        try Data((Self.goodLine + "\n" + Self.secondLine + "\n").utf8).write(to: file)
        var keys: [String] = []
        #expect(throws: Stop()) {
            try QuickDrawReader(inputs: [file.path]).read(
                onRecord: { record, _ in
                    keys.append(record.keyID)
                    throw Stop()
                },
                onRejected: { _ in })
        }
        #expect(keys == ["1"])
        #expect(throws: Stop()) {
            try QuickDrawReader(inputs: [file.path]).readFlat(
                onRecord: { _, _, _ in throw Stop() }, onRejected: { _ in })
        }
    }

    @Test func bytesAfterTheLastMemberThatAreNotGzipAreOneSourceErrorAtTheirOffset() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let member = try Self.gzip(Data((Self.goodLine + "\n" + Self.secondLine + "\n").utf8))
        let file = directory.appendingPathComponent("trailing.ndjson.gz")
        try (member + Data([0, 0]) + Data("not gzip".utf8)).write(to: file)
        let (records, rejected) = try TestSupport.readAll([file.path])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(
            rejected.map(\.reason) == [
                "source error at byte \(member.count + 2): corrupt gzip data: incorrect header check (reading of this input stops here)"
            ])
    }

    @Test func aByteOrderMarkAtTheStartOfAFileIsSkipped() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bom.ndjson")
        try Data([0xEF, 0xBB, 0xBF] + Array((Self.goodLine + "\n" + Self.secondLine + "\n").utf8)).write(to: file)
        let (records, rejected) = try TestSupport.readAll([file.path])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(rejected.isEmpty)
    }

    @Test func readsStandardInputGivenAsDash() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("stdin.ndjson.gz")
        try Self.gzip(Data((Self.goodLine + "\n" + Self.secondLine).utf8)).write(to: file)
        let saved = dup(STDIN_FILENO)
        let replacement = open(file.path, O_RDONLY)
        dup2(replacement, STDIN_FILENO)
        close(replacement)
        defer {
            dup2(saved, STDIN_FILENO)
            close(saved)
        }
        let (records, rejected) = try TestSupport.readAll(["-"])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(rejected.isEmpty)
    }

    @Test func badLinesAreRejectedWithFileAndLineAndTheRestIsRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mixed.ndjson")
        try Data((Self.goodLine + "\r\n{\"word\":\n\n   \n" + Self.secondLine).utf8).write(to: file)
        let (records, rejected) = try TestSupport.readAll([file.path])
        #expect(records.map(\.keyID) == ["1", "2"])
        #expect(rejected.count == 1)
        #expect(rejected[0].location == SourceLocation(file: file.path, line: 2))
        #expect(rejected[0].bytes == Array(#"{"word":"#.utf8))
    }

    @Test func overlongLinesAreRejectedTruncated() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("long.ndjson")
        try Data((String(repeating: "x", count: 5000) + "\n" + Self.goodLine + "\n").utf8).write(to: file)
        var reader = try QuickDrawReader(inputs: [file.path])
        reader.maximumLineLength = 1000
        var rejected: [RejectedLine] = []
        var keys: [String] = []
        try reader.read(onRecord: { record, _ in keys.append(record.keyID) }, onRejected: { rejected.append($0) })
        #expect(keys == ["1"])
        #expect(rejected.map(\.bytes.count) == [1000])
    }

    @Test func aMissingInputIsAUserErrorNamingThePath() {
        #expect(throws: FormatError.self) { try QuickDrawReader(inputs: ["/nonexistent/x.ndjson"]) }
    }

    @Test func atomicWriterLeavesNoFileUntilCommitAndNoTemporaryAfter() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        do {
            let abandoned = try AtomicFileWriter(path: path)
            try abandoned.write("never")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        try writeAtomically("hello", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }

    @Test func flatReadingHandsTheSameRecordsAndPointsAsReading() throws {
        let directory = try TestSupport.temporaryDirectory()
        let file = directory.appendingPathComponent("mixed.ndjson")
        let head = #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"#
        try writeAtomically(
            [
                head + #""1","drawing":[[[1,2.5],[3,4],[0,17]],[[5],[6]]]}"#,
                head + #""2","drawing":[[[1],[2,3]]]}"#,
                head + #""3","drawing":[[[7,8,9],[1,2,3]]]}"#,
            ].joined(separator: "\n"), to: file.path)
        let (whole, flat) = try TestSupport.wholeAndFlatReads(of: DrawingSource(inputs: [file.path]))
        #expect(flat == whole)
        #expect(flat.count == 3)
    }
}
