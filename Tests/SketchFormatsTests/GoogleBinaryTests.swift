import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct GoogleBinaryTests {
    static let cat = SketchRecord(
        word: "cat", countryCode: "US", timestamp: "2017-03-08 21:12:07.26604 UTC", recognized: true,
        keyID: "18446744073709551615", drawing: Drawing(strokes: [Stroke(x: [0, 255, 3], y: [9, 8, 7]), Stroke(x: [4], y: [5])]))
    static let dog = SketchRecord(
        word: "cat", countryCode: "FR", timestamp: "1970-01-01 00:00:00 UTC", recognized: false,
        keyID: "42", drawing: Drawing(strokes: [Stroke(x: [1, 2], y: [3, 4])]))

    static func read(_ path: String, word: String? = nil) throws -> ([SketchRecord], [RejectedLine]) {
        var records: [SketchRecord] = []
        var rejected: [RejectedLine] = []
        try GoogleBinaryReader(path: path, word: word).read(
            onRecord: { record, _ in records.append(record) }, onRejected: { rejected.append($0) })
        return (records, rejected)
    }

    @Test func writtenRecordsReadBackWithTheWordFromTheFileNameAndTheTimestampInWholeSeconds() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("The Eiffel Tower.bin").path
        let writer = try GoogleBinaryWriter(path: path)
        try writer.write(Self.cat)
        try writer.write(Self.dog)
        try writer.commit()
        let (records, rejected) = try Self.read(path)
        #expect(rejected.isEmpty)
        var expected = [Self.cat, Self.dog].map { record in
            var record = record
            record.word = "The Eiffel Tower"
            return record
        }
        expected[0].timestamp = "2017-03-08 21:12:07 UTC"
        #expect(records == expected)
    }

    @Test("a file's word is its base name without .bin.gz or .bin, read from an ASCII path's bytes as from any path's characters")
    func aFilesWordIsItsBaseNameWithoutItsSuffix() {
        let expected = [
            "airplane.bin": "airplane", "/data/The Eiffel Tower.bin.gz": "The Eiffel Tower", "dir/.bin": ".bin",
            "dir/.bin.gz": ".bin.gz", "dir/a.bin.bin": "a.bin", "dir/": "", "plain": "plain", "x.BIN": "x.BIN",
            "dir/café.bin": "café", "d/\r\n.bin": "\r\n", "a/b/c.bin.gz.bin": "c.bin.gz", "/": "", "": "",
        ]
        for (path, word) in expected { #expect(GoogleBinaryFormat.word(forPath: path) == word, "\(path)") }
        // The rule by characters, as the word of a non-ASCII path is read.
        func byCharacters(_ path: String) -> String {
            let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
            for suffix in [".bin.gz", ".bin"] where name.hasSuffix(suffix) && name.count > suffix.count {
                return String(name.dropLast(suffix.count))
            }
            return name
        }
        var generator = SeededGenerator(seed: 29)
        let pieces = ["/", ".bin", ".gz", ".", "b", "in", "\r\n", "x", " ", "bin"]
        for _ in 0..<2_000 {
            let path = (0..<Int(generator.next() % 7)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(GoogleBinaryFormat.word(forPath: path) == byCharacters(path), "\(path.debugDescription)")
        }
    }

    @Test func keyIDsAreWrittenAsTheirDecimalText() {
        var generator = SeededGenerator(seed: 31)
        let values: [UInt64] = [0, 1, 9, 10, 99, 100, 4_294_967_296, UInt64.max, UInt64.max - 1, 1_000_000_000_000_000_000]
        for value in values + (0..<1_000).map({ _ in generator.next() >> (generator.next() % 64) }) {
            #expect(GoogleBinaryInputFormat.decimalText(value) == String(value))
        }
    }

    @Test func timestampsConvertBothWays() {
        for seconds: UInt32 in [0, 951_782_400, 1_489_007_527, UInt32.max] {
            let text = GoogleBinaryFormat.timestampText(seconds: seconds)
            #expect(GoogleBinaryFormat.seconds(fromTimestamp: text) == seconds)
        }
        #expect(GoogleBinaryFormat.timestampText(seconds: 951_782_400) == "2000-02-29 00:00:00 UTC")
        #expect(GoogleBinaryFormat.seconds(fromTimestamp: "2017-03-08 21:12:07") == nil)
        #expect(GoogleBinaryFormat.seconds(fromTimestamp: "2200-01-01 00:00:00 UTC") == nil)
    }

    @Test func timestampsAreTheGregorianCalendarsUTCDateAndTime() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SeededGenerator(seed: 59)
        let edges: [UInt32] = [0, 59, 60, 3_599, 3_600, 86_399, 86_400, 951_868_799, 951_868_800, UInt32.max]
        for seconds in edges + (0..<2_000).map({ _ in UInt32(truncatingIfNeeded: generator.next()) }) {
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let expected = String(
                format: "%04d-%02d-%02d %02d:%02d:%02d UTC", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
                parts.second!)
            #expect(GoogleBinaryFormat.timestampText(seconds: seconds) == expected, "\(seconds)")
        }
    }

    @Test func recordsTheLayoutCannotHoldAreRefused() {
        var bytes: [UInt8] = []
        var wideKey = Self.cat
        wideKey.keyID = "18446744073709551616"
        #expect(throws: FormatError.self) { try GoogleBinaryWriter.encode(wideKey, into: &bytes) }
        var longCountry = Self.cat
        longCountry.countryCode = "USA"
        #expect(throws: FormatError.self) { try GoogleBinaryWriter.encode(longCountry, into: &bytes) }
        var offCanvas = Self.cat
        offCanvas.drawing = Drawing(strokes: [Stroke(x: [256], y: [0])])
        #expect(throws: FormatError.self) { try GoogleBinaryWriter.encode(offCanvas, into: &bytes) }
    }

    @Test func aRecordWithoutCountryOrTimeIsWrittenWithTheUnknownCountryAndTimeZero() throws {
        var bare = Self.cat
        (bare.countryCode, bare.timestamp) = ("", "")
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(bare, into: &bytes)
        #expect(Array(bytes[8..<10]) == Array("ZZ".utf8))
        #expect(Array(bytes[11..<15]) == [0, 0, 0, 0])
    }

    @Test func aTruncatedLastRecordIsQuarantinedWithItsByteOffsetAndTheRestIsRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(Self.dog, into: &bytes)
        let firstLength = bytes.count
        try GoogleBinaryWriter.encode(Self.cat, into: &bytes)
        let path = directory.appendingPathComponent("cat.bin").path
        try Data(bytes.dropLast(3)).write(to: URL(fileURLWithPath: path))
        let (records, rejected) = try Self.read(path)
        #expect(records.map(\.keyID) == ["42"])
        #expect(rejected.count == 1)
        #expect(rejected[0].location.line == 2)
        #expect(rejected[0].reason.hasPrefix("record at byte offset \(firstLength): truncated"))
        #expect(String(decoding: rejected[0].bytes, as: UTF8.self).hasPrefix(#"{"byte_offset":\#(firstLength),"#))
    }

    @Test func aCutGzipStreamRejectsTheRecordItCutsAndIsASourceErrorNotATruncation() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        var state: UInt64 = 7
        func coordinate() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 56)
        }
        for index in 0..<2_000 {
            var record = Self.cat
            record.keyID = String(index)
            record.drawing = Drawing(strokes: [Stroke(x: (0..<40).map { _ in coordinate() }, y: (0..<40).map { _ in coordinate() })])
            try GoogleBinaryWriter.encode(record, into: &bytes)
        }
        let compressed = try QuickDrawReaderTests.gzip(Data(bytes))
        let path = directory.appendingPathComponent("cat.bin.gz").path
        try compressed.prefix(compressed.count * 3 / 4).write(to: URL(fileURLWithPath: path))
        let (records, rejected) = try Self.read(path)
        #expect(!records.isEmpty && records.count < 2_000)
        #expect(rejected.count == 2)
        #expect(!rejected[0].isSourceError && rejected[0].location.line == records.count + 1)
        #expect(rejected[0].reason.contains("cut short by a damaged or unreadable input"))
        #expect(rejected[1].isSourceError)
        #expect(rejected[1].reason == "source error at byte 0: truncated gzip member (input ends before its end-of-stream marker)")
    }

    @Test func anInconsistentRecordIsQuarantinedAndTheNextOneIsStillRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(Self.cat, into: &bytes)
        bytes[10] = 7  // recognized
        try GoogleBinaryWriter.encode(Self.dog, into: &bytes)
        let path = directory.appendingPathComponent("cat.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (records, rejected) = try Self.read(path)
        #expect(records.map(\.keyID) == ["42"])
        #expect(rejected.map(\.reason) == ["record at byte offset 0: inconsistent (recognized is 7, not 0 or 1)"])
    }

    @Test func aRecordOverTheStrokeLimitIsRejectedAndTheNextOneIsStillRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let strokes = DrawingLimits.maximumStrokes + 1
        var bytes: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 0x55, 0x53, 1, 0, 0, 0, 0, UInt8(strokes & 0xFF), UInt8(strokes >> 8)]
        for _ in 0..<strokes { bytes += [1, 0, 7, 8] }
        try GoogleBinaryWriter.encode(Self.dog, into: &bytes)
        let path = directory.appendingPathComponent("cat.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (records, rejected) = try Self.read(path)
        #expect(records.map(\.keyID) == ["42"])
        #expect(rejected.count == 1)
        #expect(rejected.first?.reason.contains("over the limit of \(DrawingLimits.maximumStrokes)") == true)
    }

    @Test func contentDetectionTellsNDJSONBinAndStroke3ApartAndRefusesOtherBytes() throws {
        var bin: [UInt8] = []
        try GoogleBinaryWriter.encode(Self.cat, into: &bin)
        #expect(DrawingFileFormat.detect(bin) == .bin)
        let line =
            Array(#"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[2]]]}"#.utf8) + [0x0A]
        #expect(DrawingFileFormat.detect([0x0A, 0x20] + line) == .ndjson)
        #expect(DrawingFileFormat.detect([0x50, 0x4B, 3, 4, 0, 0]) == .stroke3)
        #expect(DrawingFileFormat.detect(Array("hello, world\n".utf8)) == nil)
    }

    @Test func drawingSourceReadsBinFromStdinOnlyWithACategory() {
        #expect(throws: FormatError.self) { try DrawingSource(inputs: ["-"], format: .bin) }
        #expect(throws: FormatError.self) { try DrawingSource(inputs: ["-"], format: .stroke3) }
    }

    /// A record of key_id `index` with 1 to `strokes` strokes of 1 to `points` random points
    /// (1 to `longPoints` for one stroke in ten), every coordinate in 0...255.
    static func seededRecord(_ index: Int, strokes: Int, points: Int, longPoints: Int, _ random: inout SeededGenerator) -> SketchRecord {
        let drawn = (0..<(1 + Int(random.next() % UInt64(strokes)))).map { _ in
            let count = 1 + Int(random.next() % UInt64(random.next() % 10 == 0 ? longPoints : points))
            return Stroke(x: (0..<count).map { _ in Double(random.next() % 256) }, y: (0..<count).map { _ in Double(random.next() % 256) })
        }
        return SketchRecord(
            word: "cat", countryCode: "US", timestamp: "2017-03-08 21:12:07 UTC", recognized: true, keyID: "\(index)",
            drawing: Drawing(strokes: drawn))
    }

    /// A `.bin` file of `count` seeded records (``seededRecord(_:strokes:points:longPoints:_:)``)
    /// ending in a record cut short; `damage` may change each encoded record and add bytes before it.
    static func seededFile(
        count: Int, seed: UInt64, strokes: Int, points: Int, longPoints: Int,
        damage: (_ record: inout [UInt8], _ before: inout [UInt8], _ random: inout SeededGenerator) -> Void
    ) throws -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        for index in 0..<count {
            var encoded: [UInt8] = []
            try GoogleBinaryWriter.encode(
                Self.seededRecord(index, strokes: strokes, points: points, longPoints: longPoints, &random), into: &encoded)
            damage(&encoded, &bytes, &random)
            bytes += encoded
        }
        return bytes + [1, 2, 3]  // a record cut short
    }

    @Test("seeded records read with flat points give the strokes, records and rejections of a whole read")
    func seededRecordsReadFlatLikeWhole() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Self.seededFile(count: 1_000, seed: 0xF1A7, strokes: 20, points: 25, longPoints: 300) { encoded, _, random in
            if random.next() % 8 == 0 { encoded[8] = 0x01 }  // a country the name rules refuse
        }
        let path = try InputFormatPluginTests.write(bytes, named: "cat.bin", in: directory)
        let (whole, flat) = try TestSupport.wholeAndFlatReads(of: DrawingSource(inputs: [path], format: .bin))
        #expect(flat == whole)
        #expect(whole.count == 1_001)
    }

    @Test("seeded records, consistent or not, are cut the same whether the read buffer holds them whole or not")
    func seededRecordsAreCutTheSameForEveryReadBufferSize() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try Self.seededFile(count: 2_000, seed: 0xB1B, strokes: 6, points: 30, longPoints: 400) { encoded, bytes, random in
            switch random.next() % 12 {
            case 0: encoded[10] = 2  // recognized neither 0 nor 1
            case 1: encoded[8] = 0xC3  // a country byte outside ASCII
            case 2:  // a record of no strokes, then one whose first stroke has no points, before this one
                let header = Array(encoded[0..<15])
                bytes += header + [0, 0]
                bytes += header + [2, 0] + [0, 0] + [1, 0, 7, 9]
            default: break
            }
        }
        let path = try InputFormatPluginTests.write(bytes, named: "cat.bin", in: directory)
        func items(bufferBytes: Int) -> [String] {
            let cursor = GoogleBinaryCursor(path: path, hashing: true, bufferBytes: bufferBytes)
            var all: [String] = []
            var block: [UInt8] = []
            while let item = cursor.next(appendingTo: &block) {
                switch item {
                case .record(let number): all.append("\(number): \(block)")
                case .rejected(let rejected): all.append("\(rejected.location.line): \(rejected.reason) \(rejected.bytes)")
                case .unopened(let reason): all.append("unopened: \(reason)")
                case let .sourceError(offset, reason): all.append("\(offset): \(reason)")
                }
                block.removeAll(keepingCapacity: true)
            }
            all.append(cursor.digest() ?? "")
            return all
        }
        let whole = items(bufferBytes: 1 << 18)
        #expect(whole.count > 1_800 && whole.contains { $0.contains("inconsistent") } && whole.contains { $0.contains("truncated") })
        for bufferBytes in [17, 100, 1_000, 4_096] {
            #expect(items(bufferBytes: bufferBytes) == whole, "buffer of \(bufferBytes) bytes")
        }
    }
}
