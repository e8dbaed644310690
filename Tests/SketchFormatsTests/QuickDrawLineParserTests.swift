import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct QuickDrawLineParserTests {
    @Test func everySharedLineParsesToTheSameValuesAsJSONSerialization() throws {
        var checked = 0
        for kind in ["raw", "simplified"] {
            let directory = TestSupport.quickDrawDirectory(kind)
            let reader = try QuickDrawReader(inputs: [directory.path])
            for file in reader.files {
                let lines = try Data(contentsOf: URL(fileURLWithPath: file)).split(separator: 0x0A)
                var parser = QuickDrawLineParser()
                for (index, line) in lines.enumerated() {
                    let record = try parser.parse(Array(line))
                    let reference = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
                    let matches = Self.record(record, equals: reference)
                    #expect(matches, "\(file):\(index + 1)")
                    if !matches { return }
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    /// Whether `record` holds exactly the values of the reference JSON object. On Linux,
    /// JSONSerialization keeps decimals as exact NSDecimalNumbers whose `doubleValue` is not
    /// correctly rounded, so numbers are compared through their exact decimal text.
    private static func record(_ record: SketchRecord, equals json: [String: Any]) -> Bool {
        guard record.word == json["word"] as? String,
            record.countryCode == json["countrycode"] as? String,
            record.timestamp == json["timestamp"] as? String,
            record.keyID == json["key_id"] as? String,
            record.recognized == (json["recognized"] as? NSNumber)?.boolValue,
            let strokes = json["drawing"] as? [[[NSNumber]]],
            strokes.count == record.drawing.strokes.count
        else { return false }
        for (stroke, arrays) in zip(record.drawing.strokes, strokes) {
            func values(_ numbers: [NSNumber]) -> [Double?] { numbers.map { Double($0.stringValue) } }
            let expectedT = arrays.count == 3 ? values(arrays[2]) : []
            guard stroke.x == values(arrays[0]), stroke.y == values(arrays[1]), stroke.t == expectedT
            else { return false }
        }
        return true
    }

    @Test("points parsed into flat storage are the drawing's strokes, line after line, a refused line between them")
    func pointsParsedIntoFlatStorageAreTheDrawingsStrokes() throws {
        var checked = 0
        for kind in ["raw", "simplified"] {
            let directory = TestSupport.quickDrawDirectory(kind)
            let reader = try QuickDrawReader(inputs: [directory.path])
            for file in reader.files.prefix(20) {
                let lines = try Data(contentsOf: URL(fileURLWithPath: file)).split(separator: 0x0A)
                var parser = QuickDrawLineParser()
                var flatParser = QuickDrawLineParser(keepsTimestamps: false)
                var timedParser = QuickDrawLineParser()
                var flat = FlatStrokes()
                var timed = FlatStrokes()
                for line in lines {
                    let record = try parser.parse(Array(line))
                    let flatRecord = try Array(line).withUnsafeBufferPointer { try flatParser.parse($0, strokesInto: &flat) }
                    #expect(flat.drawing == Drawing(strokes: record.drawing.strokes.map { Stroke(x: $0.x, y: $0.y) }), "\(file)")
                    #expect(flat.t.isEmpty && flat.timedStrokeCount == 0)
                    _ = try Array(line).withUnsafeBufferPointer { try timedParser.parse($0, strokesInto: &timed) }
                    #expect(timed.drawing == record.drawing, "\(file)")
                    #expect(timed.t.count == (kind == "raw" ? timed.x.count : 0) && timed.isTimed == (kind == "raw"))
                    #expect(flat.x.count == flat.y.count && flat.x.count == (flat.strokeEnds.last ?? 0))
                    #expect(flatRecord.kind == record.kind && flatRecord.drawing.strokes.isEmpty)
                    #expect(record.kind == DrawingKind.detect(record.drawing) && record.kind.rawValue == kind)
                    // A line refused in its last stroke, after points were parsed into place.
                    var refused = Array(line)
                    let end = try #require(refused.lastIndex(of: UInt8(ascii: "]")))
                    refused.insert(contentsOf: Array(",[[1,2,3],[4,5]]".utf8), at: end)
                    let reason = refused.withUnsafeBufferPointer { bytes -> String? in
                        do throws(FormatError) {
                            _ = try flatParser.parse(bytes, strokesInto: &flat)
                            return nil
                        } catch {
                            return error.reason
                        }
                    }
                    #expect(reason?.contains("x has 3 values but y has 2") == true, "\(reason ?? "parsed")")
                    #expect(flat.x.count == flat.y.count && flat.x.count == (flat.strokeEnds.last ?? 0))
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    @Test("flat storage keeps the times of the strokes that have them, 0 for the others, whatever the line before held")
    func flatStorageKeepsTheTimesOfTheStrokesThatHaveThem() throws {
        // Each drawing's strokes: nil for a stroke without times, else its first time.
        let drawings: [[Double?]] = [[10, 20, 30], [nil, nil], [nil, 40, nil, 50], [60, nil], [nil], [70], [nil, nil, 80]]
        var parser = QuickDrawLineParser()
        var unkept = QuickDrawLineParser(keepsTimestamps: false)
        var flat = FlatStrokes()
        var untimed = FlatStrokes()
        for (number, firsts) in drawings.enumerated() {
            let strokes = firsts.enumerated().map { stroke, first in
                let x = (0...(stroke + number) % 3).map { Double(stroke * 7 + $0) }
                return Stroke(x: x, y: x.map { $0 + 1 }, t: first.map { first in x.indices.map { first + Double($0) } } ?? [])
            }
            let arrays = strokes.map { stroke in
                "["
                    + [stroke.x, stroke.y, stroke.t].filter { !$0.isEmpty }.map { "[\($0.map { String(Int($0)) }.joined(separator: ","))]" }
                    .joined(separator: ",") + "]"
            }
            let line =
                Array(
                    #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":["#.utf8)
                + Array(arrays.joined(separator: ",").utf8) + Array("]}".utf8)
            _ = try line.withUnsafeBufferPointer { try parser.parse($0, strokesInto: &flat) }
            _ = try line.withUnsafeBufferPointer { try unkept.parse($0, strokesInto: &untimed) }
            let timedCount = firsts.compactMap { $0 }.count
            let times = timedCount == 0 ? [] : strokes.flatMap { $0.t.isEmpty ? Array(repeating: 0, count: $0.x.count) : $0.t }
            #expect(flat.x == strokes.flatMap(\.x) && flat.y == strokes.flatMap(\.y), "drawing \(number)")
            #expect(flat.t == times && flat.timedStrokeCount == timedCount, "drawing \(number)")
            #expect(flat.isTimed == (timedCount == strokes.count))
            #expect(flat.drawing == Drawing(strokes: flat.isTimed ? strokes : strokes.map { Stroke(x: $0.x, y: $0.y) }))
            #expect(untimed.x == flat.x && untimed.t.isEmpty && untimed.timedStrokeCount == 0)
        }
    }

    @Test(
        "a drawing is simplified exactly when every coordinate as written is an integer in 0...255, however it is written",
        arguments: ["0", "255", "256", "3.0", "2.5e1", "1e2", "3e2", "-0", "-1", "0.5", "255.0000001", "254.9", "1E0", "7", "1000000"])
    func aDrawingsKindFollowsItsCoordinatesAsWritten(_ coordinate: String) throws {
        var parser = QuickDrawLineParser()
        var flatParser = QuickDrawLineParser(keepsTimestamps: false)
        var flat = FlatStrokes()
        let expected: DrawingKind = DrawingKind.isSimplifiedCoordinate(try #require(Double(coordinate))) ? .simplified : .raw
        for drawing in ["[[[1,\(coordinate)],[2,3]]]", "[[[1, 2], [3, 4]], [[5, 6], [7, \(coordinate)]]]", "[[[\(coordinate)],[9]]]"] {
            let line =
                Array(
                    #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":"#.utf8)
                + Array(drawing.utf8) + [UInt8(ascii: "}")]
            #expect(try parser.parse(line).kind == expected, "\(drawing)")
            #expect(try line.withUnsafeBufferPointer { try flatParser.parse($0, strokesInto: &flat) }.kind == expected, "\(drawing)")
        }
    }

    @Test("an array read from a slot on fills the slots from there, keeps those before it and counts its limit from there")
    func anArrayReadFromASlotOnKeepsTheSlotsBeforeIt() throws {
        func read(_ text: String, into storage: inout [Double], at start: Int, limit: Int) -> Result<Int, FormatError> {
            Array(text.utf8).withUnsafeBufferPointer { buffer in
                var cursor = JSONCursor(buffer)
                return Result { () throws(FormatError) in
                    try cursor.parseNumberArray(into: &storage, at: start, what: "values", bound: 1e9, limit: limit)
                }
            }
        }
        var storage: [Double] = [7, 8, 9]
        let values = (1...700).map(String.init)
        #expect(try read("[" + values.joined(separator: ",") + "]", into: &storage, at: 2, limit: 700).get() == 700)
        #expect(storage[..<2] == [7, 8])
        #expect(Array(storage[2..<702]) == (1...700).map(Double.init))
        #expect(storage.count <= 2 + 700 + 1)
        #expect(try read("[5,6]", into: &storage, at: 702, limit: 2).get() == 2)
        #expect(storage[702..<704] == [5, 6] && storage[701] == 700)
        guard case .failure(let error) = read("[1,2,3]", into: &storage, at: 1, limit: 2) else {
            Issue.record("three values read with a limit of two")
            return
        }
        #expect(error.reason.contains(DrawingLimits.tooManyPoints))
        #expect(storage[0] == 7)
    }

    @Test func keysMayComeInAnyOrderAndUnknownKeysAreSkipped() throws {
        let record = try TestSupport.parse(
            #"{"drawing":[[[1,2],[3,4]]],"extra":{"a":[1,{"b":null}],"c":"\"x\""},"key_id":"9","#
                + #""recognized":false,"timestamp":"t","countrycode":"DE","word":"cat","more":-1.5e3}"#)
        #expect(
            record
                == SketchRecord(
                    word: "cat", countryCode: "DE", timestamp: "t", recognized: false,
                    keyID: "9", drawing: Drawing(strokes: [Stroke(x: [1, 2], y: [3, 4])])))
    }

    /// The values of the JSON number array `text`, read as the parser reads coordinates but
    /// with no bound on their size (the conversion itself is under test here).
    private func numberArray(_ text: String) throws -> [Double] {
        var storage: [Double] = [0]
        let bytes = Array(text.utf8)
        let count = try bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            return try Result { () throws(FormatError) in
                try cursor.parseNumberArray(into: &storage, what: "values", bound: .greatestFiniteMagnitude, limit: 1_000)
            }.get()
        }
        return Array(storage[..<count])
    }

    /// How many values the JSON number array `text` holds, counted as the parser counts the
    /// timestamps it does not keep.
    private func numberCount(_ text: String) throws -> Int {
        var scratch: [Double] = []
        return try Array(text.utf8).withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            return try Result { () throws(FormatError) in
                try cursor.countNumberArray(scratch: &scratch, what: "values", bound: .greatestFiniteMagnitude, limit: 1_000)
            }.get()
        }
    }

    @Test func decimalsConvertExactlyLikeStrtod() throws {
        let x = try numberArray("[0.1,-2.5,123.456789,1e2,1E-2,0.30000000000000004,12345678901234567890.5]")
        let y = try numberArray(
            "[7,-0,4.9406564584124654e-324,3.141592653589793238462643,100000000000000000000000,9007199254740993,1.7976931348623157e308]")
        #expect(x == [0.1, -2.5, 123.456789, 100, 0.01, 0.30000000000000004, 12345678901234567890.5])
        #expect(y == [7, -0.0, .leastNonzeroMagnitude, 3.141592653589793, 1e23, 9_007_199_254_740_992, 1.7976931348623157e308])
        #expect(y[1].sign == .minus)
    }

    /// Plain integers followed by `,` or `]` take a shorter path than other numbers; the values
    /// are the same, up to the 15-digit limit of that path and past it.
    @Test func plainIntegersOfAnyLengthReadExactly() throws {
        #expect(
            try numberArray("[0,7,255,999999999999999,1000000000000000,9007199254740993]")
                == [0, 7, 255, 999_999_999_999_999, 1_000_000_000_000_000, 9_007_199_254_740_992])
        #expect(try numberArray("[1 ,20\t,300, 4,5.0,6]") == [1, 20, 300, 4, 5, 6])
    }

    @Test func anArrayPastThePointLimitIsRefusedWhereItsValueTooManyStartsWhateverBlanksFollowTheCommas() throws {
        for separator in [",", ", ", ",  ", ",\t", ", \n "] {
            // Four values fill the limit's slots and one more; the fifth is refused where it starts.
            let text = "[" + ["1", "22", "333", "4444", "55555"].joined(separator: separator) + "]"
            let column = text.utf8.count - 5
            var storage: [Double] = [0]
            let reason = Array(text.utf8).withUnsafeBufferPointer { buffer -> String? in
                var cursor = JSONCursor(buffer)
                do throws(FormatError) {
                    _ = try cursor.parseNumberArray(into: &storage, what: "values", bound: 1e9, limit: 3)
                    return nil
                } catch {
                    return error.reason
                }
            }
            #expect(reason?.hasSuffix("(column \(column))") == true, "\(text): \(reason ?? "read")")
        }
    }

    @Test(
        "seeded integers of 1 to 17 digits, then a separator (with JSON blanks after it), a blank, a fraction or an exponent, read as strtod reads them and counted wherever the buffer ends; a leading zero is refused"
    )
    func seededIntegersReadLikeStrtodAndCountWhereverTheBufferEnds() throws {
        var random = SeededGenerator(seed: 0x1A7E)
        let suffixes = ["", "", "", " ", "\t", ".5", "e1", "E+2", ".25e-1"]
        let separators = [",", ",", ", ", ", ", ",  ", ", \t", ",\n", ",\r\n "]
        for _ in 0..<3_000 {
            var text = "["
            var expected: [Double] = []
            var hasLeadingZero = false
            for index in 0..<(1 + Int(random.next() % 12)) {
                let length = 1 + Int(random.next() % 17)
                var digits = String((0..<length).map { _ in Character(String(random.next() % 10)) })
                if digits.count > 1 && digits.first == "0" && random.next() % 4 != 0 { digits.removeFirst() }
                hasLeadingZero = hasLeadingZero || (digits.count > 1 && digits.first == "0")
                let suffix = suffixes[Int(random.next() % UInt64(suffixes.count))]
                if index > 0 { text += separators[Int(random.next() % UInt64(separators.count))] }
                text += digits + suffix
                expected.append(strtod(digits + suffix.filter { $0 != " " && $0 != "\t" }, nil))
            }
            // The last value ends 0 to 9 bytes before the buffer does.
            text += "]" + String(repeating: " ", count: Int(random.next() % 10))
            if hasLeadingZero {
                #expect(throws: FormatError.self, "\(text)") { try numberArray(text) }
                #expect(throws: FormatError.self, "\(text)") { try numberCount(text) }
            } else {
                #expect(try numberArray(text).map(\.bitPattern) == expected.map(\.bitPattern), "\(text)")
                #expect(try numberCount(text) == expected.count, "\(text)")
            }
        }
    }

    @Test func longDecimalsConvertExactlyLikeStrtod() throws {
        // Deterministic pseudo-random decimals with 15–19 significant digits, the shapes the raw
        // files hold (e.g. 33.507999420166016), plus halfway and near-halfway cases.
        var random = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        var tokens = [
            "9007199254740993", "0.30000000000000004", "123.45678901234567", "2.2250738585072014e-308",
            "0.1000000000000000055511151231257827", "1.00000000000000011102230246251565404",
        ]
        for _ in 0..<20_000 {
            let digits = String(random.next() % 10_000_000_000_000_000_000)
            let integerDigits = Int(random.next() % UInt64(min(digits.count, 4)))
            let text = integerDigits == 0 ? "0." + digits : String(digits.prefix(integerDigits)) + "." + digits.dropFirst(integerDigits)
            tokens.append(text)
        }
        #expect(tokens.count == 20_006)
        Self.expectConvertedLikeStrtod(tokens)
    }

    @Test("eight bytes read as a number exactly when all eight are ASCII digits, to their decimal value")
    func eightDigitsReadEveryRunOfDigitsAndRefuseAnyOtherByte() {
        var random = SeededGenerator(seed: 0x8D16)
        func read(_ bytes: [UInt8]) -> UInt64? { bytes.withUnsafeBufferPointer { JSONCursor.eightDigits($0.baseAddress!) } }
        var backgrounds = [Array("00000000".utf8), Array("99999999".utf8), Array("50000005".utf8)]
        for _ in 0..<5_000 { backgrounds.append((0..<8).map { _ in UInt8(ascii: "0") + UInt8(random.next() % 10) }) }
        for background in backgrounds {
            #expect(read(background) == UInt64(String(decoding: background, as: UTF8.self)))
        }
        for background in backgrounds.prefix(6) {
            for position in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var bytes = background
                    bytes[position] = byte
                    let expected =
                        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? UInt64(String(decoding: bytes, as: UTF8.self)) : nil
                    #expect(read(bytes) == expected, "\(bytes)")
                }
            }
        }
    }

    @Test("decimals with 1 to 40 fraction digits, signs and exponents convert as strtod converts them, to the buffer's last byte")
    func fractionsOfAnyLengthConvertLikeStrtod() {
        var random = SeededGenerator(seed: 0xF7AC)
        var tokens: [String] = []
        for _ in 0..<20_000 {
            let integer = random.next() % 4 == 0 ? "0" : String(random.next() % 100_000)
            let fraction = String((0..<(1 + Int(random.next() % 40))).map { _ in Character(String(random.next() % 10)) })
            let sign = random.next() % 3 == 0 ? "-" : ""
            let exponent = random.next() % 4 == 0 ? "e" + String(Int(random.next() % 41) - 20) : ""
            tokens.append(sign + integer + "." + fraction + exponent)
        }
        Self.expectConvertedLikeStrtod(tokens)
        Self.expectConvertedLikeStrtod(["0.12345678", "1.23456789", "0.1234567", "0.123456789012345678", "9.99999999e-1"])
    }

    @Test(
        "seeded numbers with a sign or none, 1 to 9 integer digits (leading zeros too), a point with 0 to 18 fraction digits or none, then a separator, an exponent or a stray byte, with 30 bytes after them: each is read to the end of the JSON number its bytes start with, to strtod's double"
    )
    func numbersFollowedByMoreBytesReadToTheEndOfTheirJSONNumber() {
        var random = SeededGenerator(seed: 0x5D0C)
        let suffixes = [",", "]", " ", "e7", "E-12", "e+3", "e", ".", "x", "-"]
        for _ in 0..<50_000 {
            let sign = random.next() % 4 == 0 ? "-" : ""
            let integer = String((0..<(1 + Int(random.next() % 9))).map { _ in Character(String(random.next() % 10)) })
            let fractionDigits = Int(random.next() % 20) - 1
            let fraction =
                fractionDigits < 0 ? "" : "." + String((0..<fractionDigits).map { _ in Character(String(random.next() % 10)) })
            let text = Array((sign + integer + fraction + suffixes[Int(random.next() % UInt64(suffixes.count))]).utf8)
            let expected = Self.jsonNumber(atStartOf: text)
            let (value, end) = (text + Array(repeating: UInt8(ascii: ","), count: 30)).withUnsafeBufferPointer { bytes in
                var json = JSONCursor(bytes)
                return (json.parseNumber(), json.index)
            }
            let token = String(decoding: text, as: UTF8.self)
            #expect(value?.bitPattern == expected?.value.bitPattern, "\(token)")
            #expect(end == (expected?.length ?? 0), "\(token)")
        }
    }

    /// The JSON number `text` starts with (RFC 8259's grammar): its length and `strtod`'s value
    /// of it; nil when `text` does not start with one.
    static func jsonNumber(atStartOf text: [UInt8]) -> (length: Int, value: Double)? {
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < text.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[at]) }
        func digits() -> Int {
            let start = index
            while isDigit(index) { index += 1 }
            return index - start
        }
        if index < text.count && text[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return nil }
        if text[index] == UInt8(ascii: "0") { index += 1 } else { _ = digits() }
        if index < text.count && text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < text.count && text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return (index, strtod(String(decoding: text[..<index], as: UTF8.self), nil))
    }

    /// Each JSON number token in `tokens` converts to `strtod`'s double, bit for bit.
    static func expectConvertedLikeStrtod(_ tokens: [String]) {
        for token in tokens {
            let parsed = Array(token.utf8).withUnsafeBufferPointer { bytes -> Double? in
                var json = JSONCursor(bytes)
                return json.parseNumber()
            }
            #expect(parsed?.bitPattern == strtod(token, nil).bitPattern, "\(token)")
        }
    }

    /// The decimal digits of `(2M + 1) · 5^k`, the numerator of the midpoint `(2M + 1) / 2^k`
    /// written over `10^k` (`M` a 53-bit significand), by schoolbook arithmetic on 32-bit limbs.
    static func midpointDigits(significand: UInt64, fivePower k: Int) -> String {
        var limbs: [UInt64] = [(2 * significand + 1) & 0xFFFF_FFFF, (2 * significand + 1) >> 32]
        for _ in 0..<k {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = limbs[index] * 5 + carry
                limbs[index] = product & 0xFFFF_FFFF
                carry = product >> 32
            }
            if carry > 0 { limbs.append(carry) }
        }
        var groups: [String] = []
        while limbs.contains(where: { $0 != 0 }) {
            var remainder: UInt64 = 0
            for index in limbs.indices.reversed() {
                let value = remainder << 32 | limbs[index]
                limbs[index] = value / 1_000_000_000
                remainder = value % 1_000_000_000
            }
            groups.append(String(remainder))
        }
        return groups.reversed().enumerated().map { $0.offset == 0 ? $0.element : $0.element.leftPadded(to: 9) }.joined()
    }

    @Test("decimals of 19 digits around the exact midpoints between neighbouring doubles convert as strtod converts them")
    func decimalsAroundMidpointsConvertLikeStrtod() throws {
        var random = SeededGenerator(seed: 0x3D1D)
        var tokens: [String] = []
        for _ in 0..<3_000 {
            // A coordinate-like double in [1, 10^4): a float32 value, as the raw files' coordinates are.
            let value = Double(Float(Double(random.next() % 10_000_000) / 1_000 + 1))
            let significand = value.significandBitPattern | 1 << 52
            let fivePower = 52 - Int(value.exponent) + 1
            let digits = Self.midpointDigits(significand: significand, fivePower: fivePower)
            let integerDigits = digits.count - fivePower
            for length in [17, 18, 19] {
                // The midpoint cut to `length` significant digits (just below it), and one unit more (just above).
                let below = String(digits.prefix(length))
                let above = String(UInt64(below)! + 1)
                for cut in [below, above] where cut.count == length {
                    tokens.append(String(cut.prefix(integerDigits)) + "." + String(cut.dropFirst(integerDigits)))
                }
            }
        }
        #expect(tokens.count > 15_000)
        Self.expectConvertedLikeStrtod(tokens)
    }

    @Test("seeded strings, as JSON writes them or with every scalar escaped, read back; invalid UTF-8 is refused")
    func seededStringsReadBackAndInvalidUTF8IsRefused() throws {
        let palette: [Unicode.Scalar] =
            Array("ab z09\"\\/~".unicodeScalars) + [
                "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}",
            ]
        func read(_ bytes: [UInt8]) throws(FormatError) -> String {
            var scratch: [UInt8] = []
            return try bytes.withUnsafeBufferPointer { (bytes) throws(FormatError) in
                var json = JSONCursor(bytes)
                return try json.parseString(scratch: &scratch)
            }
        }
        var random = SeededGenerator(seed: 0x57A)
        for case_ in 0..<500 {
            var text = ""
            for _ in 0..<(random.next() % 12) { text.unicodeScalars.append(palette[Int(random.next() % UInt64(palette.count))]) }
            let written = try JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            let literal = Array(written.dropFirst().dropLast())  // ["…"] → "…"
            #expect(try read(literal) == text, "case \(case_): \(String(decoding: literal, as: UTF8.self))")
            var escaped = "\""
            for unit in text.utf16 { escaped += String(format: "\\u%04x", unit) }
            #expect(try read(Array((escaped + "\"").utf8)) == text, "case \(case_), escaped")
            if !literal.isEmpty {
                // A byte no UTF-8 holds, or a multibyte sequence cut short, anywhere inside the quotes.
                for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]] {
                    var damaged = literal
                    damaged.insert(contentsOf: bad, at: 1 + Int(random.next() % UInt64(literal.count - 1)))
                    #expect(throws: FormatError.self, "case \(case_): \(bad)") { try read(damaged) }
                }
            }
        }
    }

    @Test func stringEscapesAreDecoded() throws {
        let record = try TestSupport.parse(
            #"{"word":"a\"b \u00e9\ud83d\ude00","countrycode":"US","timestamp":"t\/\\","#
                + #""recognized":true,"key_id":"1","drawing":[[[1],[2]]]}"#)
        #expect(record.word == "a\"b é😀")
        #expect(record.timestamp == "t/\\")
    }

    @Test(arguments: [
        (#""word":"a\/b""#, "path separator"), (#""word":"a\\b""#, "path separator"), (#""word":"..""#, "cannot be a file name"),
        (#""word":"a\nb""#, "U+000A"), (#""word":"a\u0000b""#, "U+0000"), (#""word":"a\u0085""#, "U+0085"),
        (#""word":"""#, "empty"), (#""key_id":"1\u001b[31m""#, "U+001B"), (#""countrycode":"U\rS""#, "U+000D"),
    ])
    func namesThatCannotBeFileNamesOrLinesAreRejected(field: String, reason: String) throws {
        var fields = [
            #""word":"cat""#, #""countrycode":"US""#, #""timestamp":"t""#, #""recognized":true"#,
            #""key_id":"1""#, #""drawing":[[[1],[2]]]"#,
        ]
        let key = field.split(separator: ":")[0]
        fields = fields.map { $0.hasPrefix(key + ":") ? field : $0 }
        let error = #expect(throws: FormatError.self) { try TestSupport.parse("{" + fields.joined(separator: ",") + "}") }
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
    }

    @Test func aWordAtTheFileNameLimitIsAcceptedAndOneByteMoreIsNot() throws {
        let longest = String(repeating: "é", count: DataName.maximumWordBytes / 2) + (DataName.maximumWordBytes % 2 == 1 ? "x" : "")
        #expect(longest.utf8.count == DataName.maximumWordBytes)
        let line = { (word: String) in
            #"{"word":""# + word + #"","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[2]]]}"#
        }
        #expect(try TestSupport.parse(line(longest)).word == longest)
        #expect(throws: FormatError.self) { try TestSupport.parse(line(longest + "x")) }
    }

    @Test(arguments: [
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,2],[3]]]}"#,
            "stroke 1: x has 2 values but y has 1"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[3],[1,2]]]}"#,
            "stroke 1: x has 1 values but t has 2"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"drawing":[[[1],[3]]]}"#,
            "missing key \"key_id\""
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[]}"#,
            "empty drawing: no strokes"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[],[]]]}"#,
            "stroke 1 has no points"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,"2"],[3,4]]]}"#,
            "stroke 1 x: non-numeric value at position 2"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,null],[3,4]]]}"#,
            "stroke 1 x: non-numeric value at position 2"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,01],[3,4]]]}"#,
            "stroke 1 x: expected ',' or ']' after a number"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,1e999],[3,4]]]}"#,
            "coordinate out of range: stroke 1 x position 2"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":"yes","key_id":"1","drawing":[[[1],[3]]]}"#,
            "key \"recognized\": expected true or false"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":1,"drawing":[[[1],[3]]]}"#,
            "key \"key_id\": expected a string"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[3]]]"#,
            "expected ',' or '}' after a value"
        ),
        (
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1],[3]]]} x"#,
            "unexpected bytes after the closing '}'"
        ),
        (#"[1,2,3]"#, "expected '{' at the start of the line"),
        (#"{"word":"w\u00"}"#, "invalid \\u escape"),
    ])
    func malformedLinesAreRejectedWithTheirReason(line: String, reason: String) {
        #expect(throws: FormatError.self) { try TestSupport.parse(line) }
        do {
            _ = try TestSupport.parse(line)
        } catch {
            #expect(error.reason.hasPrefix(reason), "got: \(error.reason)")
        }
    }

    /// Timestamps that are not kept are counted from their bytes when they are plain integers;
    /// every `t` array must still be accepted or rejected exactly as when it is read.
    @Test(arguments: [
        "[10,20,30]", "[ 10 , 20 ,\t30 ]", "[0,1,2]", "[1.5,2,3]", "[-1,2,3]", "[1e3,2,3]", "[01,2,3]",
        "[1,2]", "[1,2,3,4]", "[]", "[1,2,", "[1,2,3", "[1,,3]", "[1,\"2\",3]", "[1,2,3]x",
        "[123456789012345,2,3]", "[1234567890123456,2,3]", "[1" + String(repeating: "0", count: 400) + ",2,3]",
    ])
    func unkeptTimestampsAreCheckedLikeKeptOnes(times: String) {
        let line =
            #"{"word":"w","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[1,2,3],[4,5,6],"#
            + times + "]]}"
        func outcome(keepingTimestamps: Bool) -> String {
            var parser = QuickDrawLineParser(keepsTimestamps: keepingTimestamps)
            do {
                let record = try parser.parse(Array(line.utf8))
                return "ok \(record.drawing.strokes.map { [$0.x, $0.y] })"
            } catch {
                return error.reason
            }
        }
        #expect(outcome(keepingTimestamps: false) == outcome(keepingTimestamps: true))
    }
}
