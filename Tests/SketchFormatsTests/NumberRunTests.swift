import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

/// `JSONCursor.parseNumberArray` reads an array's run of plain integers and short decimals with
/// `NumberRun` and the rest value by value: the values written (the doubles `Double(String)`, a
/// correctly rounded conversion, gives them), and for anything else the error the value reader gives
/// at its position, whether a value of another shape, a blank or the end of the line (whose last
/// bytes the run leaves to the value reader) comes first, last or in between.
@Suite struct NumberRunTests {
    /// Reads the array at the start of `text` with `bound`: its values, or the error's reason.
    private func read(_ text: String, bound: Double = 1e15) -> Result<[Double], FormatError> {
        var storage: [Double] = []
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            return Result { () throws(FormatError) in
                let count = try cursor.parseNumberArray(into: &storage, what: "values", bound: bound, limit: 100_000)
                return Array(storage[..<count])
            }
        }
    }

    /// A random value as JSON writes it: mostly plain integers of 1 to 10 digits and decimals
    /// with 1 to 17 fraction digits (the raw files' `33.507999420166016`), sometimes a negative
    /// number, an exponent or a leading zero, which the run leaves to the value reader.
    private func token(_ random: inout SeededGenerator) -> String {
        switch random.next() % 20 {
        case 0: return "\(random.next() % 1000).\(random.next() % 100 + 1)"
        case 1: return "-\(random.next() % 300)"
        case 2: return "\(random.next() % 9 + 1)e\(random.next() % 3)"
        case 3: return "0"
        case 4, 5, 6:
            let fraction = (0..<Int(random.next() % 17 + 1)).map { _ in String(random.next() % 10) }.joined()
            return "\(random.next() % 100_000).\(fraction)"
        case 7: return "0.\(random.next() % 1_000_000_000)"
        case 8: return "-\(random.next() % 300).\(random.next() % 1000)"
        case 9: return "\(random.next() % 300).\(random.next() % 1000)e-\(random.next() % 3)"
        default:
            let digits = Int(random.next() % 10) + 1
            let low = digits == 1 ? 1 : (1..<digits).reduce(UInt64(1)) { value, _ in value * 10 }
            return String(low + random.next() % (low * 9))
        }
    }

    @Test func generatedArraysReadToTheValuesWritten() throws {
        var random = SeededGenerator(seed: 31)
        let separators = [",", ", ", " , ", ",  ", ",\n", ",\t"]
        for round in 0..<4_000 {
            let tokens = (0..<Int(random.next() % 40)).map { _ in token(&random) }
            // Mostly one separator per array, as writers do; sometimes one of the others at random.
            let usual = random.next() % 3 == 0 ? ", " : ","
            var text = "["
            for (index, value) in tokens.enumerated() {
                if index > 0 { text += random.next() % 8 == 0 ? separators[Int(random.next() % 6)] : usual }
                text += value
            }
            text += "]" + String(repeating: "]", count: Int(random.next() % 30))
            let expected = tokens.map { Double($0)! }
            #expect(try read(text).get() == expected, "round \(round): \(text)")
        }
    }

    @Test func aFaultAfterManyIntegersIsReportedAtItsPosition() {
        var random = SeededGenerator(seed: 7)
        let faults: [(text: String, reason: String)] = [
            ("x", "non-numeric value at position"), ("", "non-numeric value at position"),
            ("+3", "non-numeric value at position"), ("05", "expected ',' or ']' after a number"),
            ("1 2", "expected ',' or ']' after a number"), ("1.", "non-numeric value at position"),
            (".5", "non-numeric value at position"), ("1.5.2", "expected ',' or ']' after a number"),
            ("05.5", "expected ',' or ']' after a number"), ("2.5 x", "expected ',' or ']' after a number"),
        ]
        for round in 0..<1_000 {
            let count = Int(random.next() % 30) + 2  // "[]" is an empty array, not a fault
            let values = (0..<count).map { _ in
                random.next() % 2 == 0 ? String(random.next() % 400) : "\(random.next() % 400).\(random.next() % 1_000_000_000_000)"
            }
            let fault = faults[round % faults.count]
            let at = Int(random.next() % UInt64(count))
            var tokens = values
            tokens[at] = fault.text
            let separator = round % 2 == 0 ? "," : ", "
            let text = "[" + tokens.joined(separator: separator) + "]" + String(repeating: " ", count: round % 40)
            guard case .failure(let error) = read(text) else {
                Issue.record("round \(round): \(text) read without error")
                continue
            }
            #expect(error.reason.contains(fault.reason), "round \(round): \(text): \(error.reason)")
            if fault.reason.hasPrefix("non-numeric") {
                #expect(error.reason.contains("position \(at + 1) ("), "round \(round): \(text): \(error.reason)")
            }
        }
    }

    @Test func aValueBeyondTheBoundIsReportedAtItsPosition() throws {
        let values = (1...40).map { $0 == 27 ? "12345678" : String($0) }
        let text = "[" + values.joined(separator: ",") + "]" + String(repeating: " ", count: 30)
        guard case .failure(let error) = read(text, bound: 1e6) else {
            Issue.record("a value of 12345678 read with a bound of 10⁶")
            return
        }
        #expect(error.reason.contains(DrawingLimits.coordinateOutOfRange))
        #expect(error.reason.contains("position 27"))
        #expect(try read(text, bound: 12_345_678).get()[26] == 12_345_678)
    }

    @Test func plainIntegersAboveABoundUnderTenMillionAreReportedAtTheirPositionWithBlanksOrWithout() throws {
        // Under 10⁷ each plain integer of the loops is checked; from 10⁷ on none of their seven
        // digits can pass the bound, and the check is left out.
        for separator in [",", ", "] {
            for (bound, beyond) in [(255.0, "256"), (1e6, "1000001"), (9_999_998.0, "9999999"), (0.0, "1")] {
                for position in [1, 2, 9, 40] {
                    let values = (1...40).map { $0 == position ? beyond : String(Int(bound) == 0 ? 0 : $0 % Int(bound)) }
                    let text = "[" + values.joined(separator: separator) + "]" + String(repeating: " ", count: 30)
                    guard case .failure(let error) = read(text, bound: bound) else {
                        Issue.record("\(beyond) read with a bound of \(bound) (separator \"\(separator)\")")
                        continue
                    }
                    #expect(error.reason.contains(DrawingLimits.coordinateOutOfRange), "\(error.reason)")
                    #expect(error.reason.contains("position \(position) "), "\(error.reason)")
                    #expect(try read(text, bound: bound + 1).get()[position - 1] == bound + 1)
                }
            }
            let sevenDigits = Array(repeating: "9999999", count: 20).joined(separator: separator)
            for bound in [1e7, 1e9, 1e15] {
                #expect(try read("[" + sevenDigits + "]" + String(repeating: " ", count: 30), bound: bound).get().count == 20)
            }
        }
    }

    @Test func integersOfEightDigitsAndMoreReadExactly() throws {
        let values = ["99999999", "10000000", "123456789", "9007199254740993", "999999999999999", "1", "0"]
        let text = "[" + (values + values + values).joined(separator: ",") + "]" + String(repeating: " ", count: 24)
        #expect(try read(text, bound: .greatestFiniteMagnitude).get() == (values + values + values).map { Double($0)! })
    }

    /// Checks that `values` read to their doubles in every rotation, joined by `, `, and with
    /// each of `odd` in place of one of those separators (a different one in each rotation).
    private func expectEveryRotationReads(_ values: [String], oddSeparators odd: [String]) throws {
        let tail = String(repeating: " ", count: 30)
        for rotation in values.indices {
            let rotated = Array(values[rotation...] + values[..<rotation])
            let expected = rotated.map { Double($0)! }
            #expect(try read("[" + rotated.joined(separator: ", ") + "]" + tail).get() == expected)
            for separator in odd {
                var separators = Array(repeating: ", ", count: rotated.count - 1)
                separators[rotation % separators.count] = separator
                let text = zip(rotated, separators + [""]).map { $0 + $1 }.joined()
                #expect(try read("[" + text + "]" + tail).get() == expected, "\(text)")
            }
        }
    }

    @Test func arraysWhoseCommasHaveBlanksReadTheSameWhicheverValueComesFirst() throws {
        // The loops for blanks take over where the first two stop at one: after integers, after a
        // decimal first, and on past a comma without its blank or a second blank, which the value
        // reader takes.
        try expectEveryRotationReads(
            ["33.507999420166016", "16", "0", "255", "44.75699996948242", "7", "1234567", "2.5"],
            oddSeparators: [",", ",  ", " ,", ",\t"])
    }

    @Test func integersOfEveryLengthWithBlanksAfterTheirCommasReadAsWithout() throws {
        // Up to six digits, an integer's comma and blank lie in its own load; a seventh digit
        // leaves the blank to a load of its own. Every length, before and after every other, with
        // a blank, a missing blank or a second one after the comma.
        try expectEveryRotationReads(
            ["7", "42", "255", "1024", "65535", "999999", "1234567", "0", "9999999", "100000"],
            oddSeparators: [",", ",  ", ",\n", ",\t"])
    }

    @Test func anArrayLongerThanTheStorageReadsOnWhereTheStorageFilled() throws {
        for separator in [",", ", "] {
            let values = (0..<3_000).map { ($0 * 7_919) % 100_000 }
            let text = "[" + values.map(String.init).joined(separator: separator) + "]"
            #expect(try read(text).get() == values.map(Double.init))
        }
    }

    @Test func valuesEndingTheBytesAreReadWithoutLookingPastThem() throws {
        // The longest decimals the run reads (18 digits and the point) and its comma as the last
        // bytes, in arrays whose commas are followed by blanks: the byte after that comma is not
        // there, and the run's loads stay within the bytes (an address sanitizer's fuzzing run
        // would report one that does not: Fuzz/Corpus/FuzzNDJSONLine/number-run-end).
        for prefix in ["[1.5, 2.5, ", "[1, 2.5, ", "[1, 2, ", "[", "[1,2,", "[1, 22, 333, 4444, 55555, "] {
            for value in ["1234567.12345678901", "123.456789012345678", "1.5", "1234567"] {
                let bytes = Array((prefix + value + ",").utf8)
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
                defer { buffer.deallocate() }
                _ = buffer.initialize(from: bytes)
                var storage: [Double] = []
                var cursor = JSONCursor(UnsafeBufferPointer(buffer))
                let outcome = Result { () throws(FormatError) in
                    try cursor.parseNumberArray(into: &storage, what: "values", bound: 1e15, limit: 100)
                }
                guard case .failure(let error) = outcome else {
                    Issue.record("\(prefix + value + ","): read without error")
                    continue
                }
                #expect(error.reason.contains("non-numeric value at position"), "\(error.reason)")
            }
        }
    }
}
