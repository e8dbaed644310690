import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

/// The input format plug-ins (`InputFormatRegistry`): the reading thread cuts raw entries, the
/// workers' decoder turns them into records, with no NDJSON line in between.
@Suite struct InputFormatPluginTests {
    /// Every entry of `path` read as `format`: its line number, raw kind and bytes as cut.
    static func rawEntries(
        _ path: String, _ format: DrawingFileFormat, word: String, recordLimit: Int? = nil
    )
        -> [(line: Int, kind: RawLineBatch.Kind, bytes: [UInt8])]
    {
        let batches = InputBatches(
            sources: [.init(path: path, format: format, word: word)], selected: [0], hashing: true, linesPerBatch: 1,
            recordLimit: recordLimit)
        var all: [(Int, RawLineBatch.Kind, [UInt8])] = []
        for batch in batches {
            for (index, entry) in batch.entries.enumerated() {
                all.append((entry.lineInChunk, entry.kind, batch.withLine(index) { Array($0) }))
            }
        }
        return all
    }

    /// What the decoder makes of every entry: records with their quarantine forms, rejections.
    static func decoded(
        _ path: String, _ format: DrawingFileFormat, word: String, flatPoints: Bool = false
    )
        -> [(record: SketchRecord?, bytes: [UInt8], reason: String?)]
    {
        var decoder = RecordBatchDecoder(flatPoints: flatPoints)
        var all: [(SketchRecord?, [UInt8], String?)] = []
        for batch in InputBatches(sources: [.init(path: path, format: format, word: word)], selected: [0], hashing: false) {
            decoder.decode(batch) { _, decoded, strokes in
                switch decoded {
                case let .record(record, line):
                    var whole = record
                    if flatPoints { whole.drawing = strokes.drawing }
                    all.append((whole, line.bytes, nil))
                case let .rejected(reason, bytes): all.append((nil, Array(bytes), reason))
                case let .sourceError(_, reason): all.append((nil, [], reason))
                }
                return true
            }
        }
        return all
    }

    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func everyFormatHasOneRegistryEntryAndDetectionAsksThemInOrder() {
        #expect(
            InputFormatRegistry.entries.map { $0.format }.sorted { $0.rawValue < $1.rawValue }
                == DrawingFileFormat.allCases.sorted { $0.rawValue < $1.rawValue })
        #expect(InputFormatRegistry.entries.first?.format == .stroke3)
        #expect(InputFormatRegistry.entries.last?.format == .bin)
        #expect(DrawingSource.fileSuffixes.sorted() == [".bin", ".bin.gz", ".csv", ".csv.gz", ".ndjson", ".ndjson.gz", ".npz"])
        #expect(DrawingSource.recursiveFileSuffixes == [".svg"])
        #expect(InputFormatRegistry.entries.filter { $0.cutsByteRanges }.map { $0.format } == [.ndjson, .csv])
    }

    @Test func aPrefixDecidesOnlyWhatTheWholeSniffAnswers() throws {
        let record = #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[2]]]}"#
        let line = Array(record.utf8) + [0x0A]
        let notRecord = Array(#"{"word":1}"#.utf8) + [0x0A]
        var bin: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.cat, into: &bin)
        let longLine = Array(#"{"word":"cat","key_id":""#.utf8) + [UInt8](repeating: 0x61, count: 70_000) + Array(#""}"#.utf8) + [0x0A]
        let inputs: [[UInt8]] = [
            line + line,
            [0x0A, 0x20] + line,
            Array(repeating: notRecord, count: 4).flatMap { $0 } + line,
            Array(repeating: notRecord, count: 8).flatMap { $0 } + line,
            longLine + line,
            Array("countrycode,drawing,key_id,recognized,timestamp,word\n".utf8),
            Array("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n".utf8),
            [0x50, 0x4B, 3, 4, 0, 0],
            bin,
            bin + bin + bin + bin + bin,
            Array(" <?xml version=\"1.0\"?>\n<svg></svg>".utf8),
            [0xEF, 0xBB, 0xBF] + Array("<svg/>".utf8),
            Array("hello, world\n".utf8),
        ]
        for bytes in inputs {
            let whole = DrawingFileFormat.detect(bytes)
            for length in [1, 3, 4, 5, line.count - 1, line.count, line.count + 1, bytes.count / 2, bytes.count] where length <= bytes.count
            {
                if let decided = DrawingFileFormat.detect(prefix: Array(bytes.prefix(length))) {
                    #expect(decided == whole, "\(length) of \(bytes.count) bytes")
                }
            }
        }
        // Seeded mixes of the same pieces, cut everywhere.
        let pieces = inputs + [[0x20], [0x0A], [0x0D, 0x0A], [0x7B], [0x3C], [0xEF, 0xBB, 0xBF], Array("<svg".utf8), [0, 1, 0xFF]]
        var state: UInt64 = 42
        for _ in 0..<100 {
            var bytes: [UInt8] = []
            for _ in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes += pieces[Int(state >> 33) % pieces.count]
            }
            let whole = DrawingFileFormat.detect(bytes)
            for length in stride(from: 1, through: bytes.count, by: max(1, bytes.count / 16)) {
                if let decided = DrawingFileFormat.detect(prefix: Array(bytes.prefix(length))) {
                    #expect(decided == whole, "\(length) of \(bytes.count) bytes")
                }
            }
        }
        var fourRecords: [UInt8] = []
        for _ in 0..<4 { try GoogleBinaryWriter.encode(GoogleBinaryTests.cat, into: &fourRecords) }
        #expect(DrawingFileFormat.detect(prefix: fourRecords + bin) == .bin)
        #expect(DrawingFileFormat.detect(prefix: fourRecords) == DrawingFileFormat.detect(fourRecords))
        #expect(DrawingFileFormat.detect(prefix: bin) == nil)
        #expect(DrawingFileFormat.detect(prefix: Array("countrycode,drawing,key_id,recognized,timestamp,word\nUS,".utf8)) == .csv)
        #expect(DrawingFileFormat.detect(prefix: Array(" <svg width=\"2\"".utf8)) == .svg)
        #expect(DrawingFileFormat.detect(prefix: line + line) == .ndjson)
        #expect(DrawingFileFormat.detect(prefix: [0x50, 0x4B, 3, 4]) == .stroke3)
        #expect(DrawingFileFormat.detect(prefix: Array(longLine.prefix(65_536))) == nil)
    }

    @Test func detectionReadsOnPastTheFirstBytesWhenTheyLeaveTheFormatOpen() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A first line of 100,000 bytes that parses: the first 64 KiB cannot tell.
        let strokes = Array(repeating: "[[1,2],[3,4]]", count: 7_500).joined(separator: ",")
        let line = #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["# + strokes + "]}\n"
        #expect(line.utf8.count > 65_536)
        let path = try Self.write(Array(line.utf8), named: "long", in: directory)
        #expect(try DrawingSource.detectFormat(path: path) == .ndjson)
        let csv = try Self.write(
            Array(("countrycode,drawing,key_id,recognized,timestamp,word\n" + String(repeating: "x", count: 70_000)).utf8), named: "rows",
            in: directory)
        #expect(try DrawingSource.detectFormat(path: csv) == .csv)
    }

    @Test("detection by 4 KiB, then 64 KiB, then the whole sniff answers what the whole sniff answers, around each step's end")
    func detectionByStepsAnswersWhatTheWholeSniffAnswers() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func record(strokes: Int) -> String {
            let drawing = Array(repeating: "[[1,2],[3,4]]", count: strokes).joined(separator: ",")
            return #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["# + drawing + "]}"
        }
        var inputs: [[UInt8]] = []
        for size in [4_096, 65_536] {
            for delta in [-200, -1, 0, 1, 200] {
                let target = size + delta
                // One record of about `target` bytes, then a second line: whole, and cut at `target`.
                let long = record(strokes: max(1, (target - 90) / 14))
                let text = Array((long + "\n" + record(strokes: 3) + "\n").utf8)
                inputs.append(text)
                inputs.append(Array(text.prefix(target)))
                let header = "countrycode,drawing,key_id,recognized,timestamp,word\n"
                inputs.append(Array((header + String(repeating: "x", count: target)).utf8))
                inputs.append(Array(String(repeating: " ", count: target).utf8) + Array("{}".utf8))
                inputs.append(Array(String(repeating: "a", count: target).utf8))
            }
        }
        for (number, bytes) in inputs.enumerated() {
            let path = try Self.write(bytes, named: "input\(number)", in: directory)
            let whole = DrawingFileFormat.detect(Array(bytes.prefix(DrawingFileFormat.sniffLength)))
            let detected = try? DrawingSource.detectFormat(path: path)
            #expect(detected == (bytes.isEmpty ? .ndjson : whole), "input \(number), \(bytes.count) bytes")
        }
    }

    @Test func binIsCutIntoItsRecordBlocksAndATruncatedRecordIsRejectedOnTheReadingThread() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bytes)
        let firstLength = bytes.count
        try GoogleBinaryWriter.encode(GoogleBinaryTests.cat, into: &bytes)
        let path = try Self.write(Array(bytes.dropLast(3)), named: "cat.bin", in: directory)

        let entries = Self.rawEntries(path, .bin, word: "cat")
        #expect(entries.count == 2)
        #expect(entries[0].line == 1)
        #expect(entries[0].bytes == Array(bytes[..<firstLength]))
        #expect(entries[1].line == 2)
        guard case .failed(let reason) = entries[1].kind else {
            Issue.record("expected a rejected record")
            return
        }
        #expect(reason.hasPrefix("record at byte offset \(firstLength): truncated"))
        #expect(String(decoding: entries[1].bytes, as: UTF8.self).hasPrefix(#"{"byte_offset":\#(firstLength),"#))
    }

    @Test func aBinRecordDecodesOnTheWorkerAndIsQuarantinedAsItsNDJSONLine() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bytes)
        let path = try Self.write(bytes, named: "dog.bin", in: directory)
        var expected = GoogleBinaryTests.dog
        expected.word = "dog"
        var line: [UInt8] = []
        SimplifiedNDJSONWriter.encode(expected, into: &line)
        for flat in [false, true] {
            let decoded = Self.decoded(path, .bin, word: "dog", flatPoints: flat)
            #expect(decoded.count == 1)
            #expect(decoded.first?.record?.drawing == expected.drawing)
            #expect(decoded.first?.record?.keyID == expected.keyID)
            #expect(decoded.first?.record?.kind == .simplified)
            #expect(decoded.first?.bytes == line)
        }
    }

    @Test func aBinRecordWithAWordDataNameRefusesIsRejectedWithItsNDJSONLine() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes: [UInt8] = []
        try GoogleBinaryWriter.encode(GoogleBinaryTests.dog, into: &bytes)
        let path = try Self.write(bytes, named: "dog.bin", in: directory)
        let decoded = Self.decoded(path, .bin, word: "..")
        #expect(decoded.count == 1)
        #expect(decoded.first?.record == nil)
        #expect(decoded.first?.reason == DataName.wordProblem("..") ?? "")
        let quarantined = String(decoding: decoded.first?.bytes ?? [], as: UTF8.self)
        #expect(quarantined.hasPrefix(#"{"word":"..","#))
    }

    @Test func aCSVRowDecodesToTheRecordAndTheReasonsOfItsNDJSONLine() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = [
            #"US,"[[[1, 2], [3, 4]]]",5,True,2017-03-08 21:12:07.266040,cat"#,
            #"US,"[[[1, 2], [3]]]",6,False,2017-03-08 21:12:07,cat"#,
            #"US,"[]",7,True,2017-03-08 21:12:07,cat"#,
        ]
        let text = KaggleCSV.Layout.train.header + "\n" + rows.joined(separator: "\n") + "\n"
        let path = try Self.write(Array(text.utf8), named: "cat.csv", in: directory)
        let decoded = Self.decoded(path, .csv, word: "")
        #expect(decoded.count == rows.count)
        var parser = QuickDrawLineParser()
        for (row, result) in zip(rows, decoded) {
            #expect(Self.expectDecodedAsNDJSONLine(Array(row.utf8), result, flatPoints: false, parser: &parser, "\(row)"))
        }
    }

    /// Expects `result`, what decoding the train-layout CSV `row` gave, to be what its NDJSON line
    /// gives: that line's bytes with its record (with flat points: its drawing and key_id) or its
    /// reason, or the reason the row cannot be split. Returns whether the row split into a line.
    @discardableResult
    static func expectDecodedAsNDJSONLine(
        _ row: [UInt8], _ result: (record: SketchRecord?, bytes: [UInt8], reason: String?), flatPoints: Bool,
        parser: inout QuickDrawLineParser, _ comment: Comment
    ) -> Bool {
        var line: [UInt8] = []
        do throws(FormatError) {
            try row.withUnsafeBufferPointer { (row) throws(FormatError) in
                try KaggleCSV.appendNDJSON(ofRow: row, layout: .train, word: "", to: &line)
            }
        } catch {
            #expect(result.record == nil && result.reason == error.reason, comment)
            return false
        }
        #expect(result.bytes == line, comment)
        do throws(FormatError) {
            let record = try parser.parse(line)
            if flatPoints {
                #expect(result.record?.drawing == record.drawing && result.record?.keyID == record.keyID, comment)
            } else {
                #expect(result.record == record, comment)
            }
        } catch {
            #expect(result.record == nil && result.reason == error.reason, comment)
        }
        return true
    }

    @Test func anUndecodableStroke3FileIsOneSourceError() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write([0x50, 0x4B, 3, 4, 0, 0, 1, 2], named: "broken.npz", in: directory)
        let entries = Self.rawEntries(path, .stroke3, word: "broken")
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
        let path = try Self.write(bytes, named: "dog.bin", in: directory)
        #expect(Self.rawEntries(path, .bin, word: "dog", recordLimit: 3).map(\.line) == [1, 2, 3])
    }

    @Test func aFloat64Stroke3RecordKeepsItsExactDeltasBesideItAndInItsQuarantineForm() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let array = NumericArray(rows: 3, columns: 3, values: [0.1, 0.2, 0, 0.2, 0.1, 0, 0.7, 0.3, 1], isFloat64: true)
        let path = directory.appendingPathComponent("kanji.npz").path
        try Stroke3NPZ.write([(.train, [array]), (.valid, []), (.test, [])], elementType: .float64, to: path)
        var decoder = RecordBatchDecoder()
        var found: (SketchRecord, [Double]?, [UInt8])?
        for batch in InputBatches(sources: [.init(path: path, format: .stroke3, word: "kanji")], selected: [0], hashing: false) {
            decoder.decode(batch) { _, decoded, _ in
                if case let .record(record, line) = decoded { found = (record, line.stroke3Deltas, line.bytes) }
                return true
            }
        }
        let (record, deltas, bytes) = try #require(found)
        #expect(Stroke3.array(of: record.drawing, exactDeltas: deltas) == array)
        var expected: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, stroke3Deltas: Stroke3.exactDeltas(of: array, drawing: record.drawing), into: &expected)
        #expect(bytes == expected)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""stroke3_deltas":"#))
    }

    @Test func int16Stroke3ArraysDecodeFromTheirStoredValuesToWhatTheGeneralPathGives() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bound = Int(DrawingLimits.maximumCoordinateMagnitude)
        let arrays = [
            NumericArray(rows: 3, columns: 3, values: [5, 6, 0, 1, -1, 1, 0, 300, 1]),  // a stroke, then one left open
            NumericArray(rows: 2, columns: 3, values: [10, 20, 1, 3, 4, 1]),  // simplified: two closed strokes
            // Positions beyond the coordinate bound: 32,767 × rows.
            NumericArray(rows: bound / 32_767 + 1, columns: 3, values: (0...(bound / 32_767)).flatMap { _ in [32_767.0, 0, 0] }),
            // More strokes than a drawing may have (every row lifts the pen).
            NumericArray(
                rows: DrawingLimits.maximumStrokes + 1, columns: 3,
                values: (0...DrawingLimits.maximumStrokes).flatMap { _ in [1.0, 0, 1] }),
        ]
        let path = directory.appendingPathComponent("cat.npz").path
        try Stroke3NPZ.write([(.train, arrays), (.valid, []), (.test, [])], to: path)
        for flatPoints in [false, true] {
            let decoded = Self.decoded(path, .stroke3, word: "cat", flatPoints: flatPoints)
            #expect(decoded.count == arrays.count)
            for (index, (array, result)) in zip(arrays, decoded).enumerated() {
                let key = "cat.npz#train#\(index)"
                guard let drawing = Stroke3.drawing(of: array) else {
                    #expect(result.reason?.hasPrefix("\(key): coordinate out of range") == true)
                    #expect(result.bytes == Array(key.utf8))
                    continue
                }
                do throws(DrawingLimitError) {
                    try DrawingLimits.checkInput(drawing)
                } catch {
                    #expect(result.reason == "\(key): \(error.reason)")
                    continue
                }
                let record = SketchRecord(word: "cat", countryCode: "", timestamp: "", recognized: true, keyID: key, drawing: drawing)
                #expect(result.record == record)
                #expect(result.record?.kind == DrawingKind.detect(drawing))
                var line: [UInt8] = []
                SimplifiedNDJSONWriter.encode(record, into: &line)
                #expect(result.bytes == line)
            }
        }
    }

    @Test func aCSVDrawingTheParserReadsButWithBytesOutsideANumberArrayIsRefusedAsBefore() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A carriage return inside the drawing, text after its closing bracket, a bracket too many.
        let rows = [
            "US,\"[[[1, 2],\r[3, 4]]]\",5,True,2017-03-08 21:12:07,cat",
            #"US,"[[[1, 2], [3, 4]]] x",6,True,2017-03-08 21:12:07,cat"#,
            #"US,"[[[1, 2], [3, 4]]]]",7,True,2017-03-08 21:12:07,cat"#,
            "US,\" [[[1, 2], [3, 4]]]\t\",8,True,2017-03-08 21:12:07,cat",
        ]
        let text = KaggleCSV.Layout.train.header + "\n" + rows.joined(separator: "\n") + "\n"
        let path = try Self.write(Array(text.utf8), named: "cat.csv", in: directory)
        let decoded = Self.decoded(path, .csv, word: "", flatPoints: true)
        #expect(decoded.map(\.reason) == Array(repeating: "drawing is not a list of stroke lists of numbers", count: 3) + [nil])
        #expect(decoded.prefix(3).map(\.bytes) == rows.prefix(3).map { Array($0.utf8) })
        #expect(decoded.last?.record?.drawing == Drawing(strokes: [Stroke(x: [1, 2], y: [3, 4])]))
    }

    @Test("seeded damaged CSV rows decode to the record or the reason of their NDJSON line, on either decoder path")
    func seededCSVRowsDecodeAsTheirNDJSONLines() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Short fields, and fields of eight bytes and more (looked at eight at a time) with
        // numbers of seven digits and more in the drawing.
        let bases = [
            Array(#"US,"[[[1, 2, 30], [3, 4, 50]], [[7], [8]]]",5,True,2017-03-08 21:12:07.266040,cat"#.utf8),
            Array(#"GB,"[[[1234567, 2, 12345678], [3, 4, 50]], [[7], [8]]]",5027286841556992,False,2017-03-08 21:12:07,café au lait"#.utf8),
        ]
        let palette = Array(#"0123456789,.-+eE[]" \tx:"#.utf8) + [0x0D, 0x00, 0x7F, 0xC3, 0xA9, 0x09, 0xB0, 0xB9]
        var random = SeededGenerator(seed: 0xC5F)
        var rows: [[UInt8]] = []
        for index in 0..<800 {
            var row = bases[index % bases.count]
            for _ in 0..<(1 + random.next() % 3) {
                let at = Int(random.next() % UInt64(row.count))
                let byte = palette[Int(random.next() % UInt64(palette.count))]
                switch random.next() % 3 {
                case 0: row[at] = byte
                case 1: row.insert(byte, at: at)
                default: row.remove(at: at)
                }
            }
            rows.append(row)
        }
        let text = Array((KaggleCSV.Layout.train.header + "\n").utf8) + rows.flatMap { $0 + [0x0A] }
        let path = try Self.write(text, named: "cat.csv", in: directory)
        var parser = QuickDrawLineParser()
        for flatPoints in [false, true] {
            let decoded = Self.decoded(path, .csv, word: "", flatPoints: flatPoints)
            #expect(decoded.count == rows.count)
            #expect(decoded.filter { $0.record != nil }.count > 100)  // both the accepted and the refused are many
            for (index, (row, result)) in zip(rows, decoded).enumerated() {
                Self.expectDecodedAsNDJSONLine(row, result, flatPoints: flatPoints, parser: &parser, "row \(index)")
            }
        }
    }
}
