import SketchCore

/// The keys of a Quick, Draw! record, recognised from their bytes without building a String.
enum QuickDrawKey {
    case word, countryCode, timestamp, recognized, keyID, drawing, stroke3Deltas, other
}

/// A forward-only position in one line's bytes, with the JSON token readers the record parser
/// needs. Errors carry the byte offset (1-based column) where reading failed.
struct JSONCursor {
    private let base: UnsafePointer<UInt8>?
    private let count: Int
    private(set) var index = 0
    /// Whether a blank the cursor stepped over was a carriage return or a newline.
    private(set) var skippedLineBreak = false

    /// Deepest nesting `skipValue` accepts inside an unknown key's value.
    static let maximumSkipDepth = 256

    /// Columns before `bytes` in their line (a value parsed on its own).
    private let columnOffset: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, columnOffset: Int = 0) {
        base = bytes.baseAddress
        count = bytes.count
        self.columnOffset = columnOffset
    }

    var isAtEnd: Bool { index >= count }

    /// The current byte, or 0 at the end (0 is never valid JSON outside strings).
    @inline(__always)
    func peek() -> UInt8 { index < count ? base.unsafelyUnwrapped[index] : 0 }

    @inline(__always)
    mutating func advance() { index += 1 }

    func error(_ reason: String) -> FormatError {
        FormatError(
            .record,
            isAtEnd ? "\(reason) (line ends at column \(columnOffset + index + 1))" : "\(reason) (column \(columnOffset + index + 1))")
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch base.unsafelyUnwrapped[index] {
            case 0x20, 0x09: index += 1
            case 0x0A, 0x0D:
                index += 1
                skippedLineBreak = true
            default: return
            }
        }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8, _ reason: @autoclosure () -> String) throws(FormatError) {
        guard peek() == byte else { throw error(reason()) }
        index += 1
    }

    /// Reads an object key and classifies it; keys with escapes are compared after decoding.
    mutating func parseKey() throws(FormatError) -> QuickDrawKey {
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
        let start = index + 1
        var end = start
        while end < count, base.unsafelyUnwrapped[end] != UInt8(ascii: "\""), base.unsafelyUnwrapped[end] != UInt8(ascii: "\\") {
            end += 1
        }
        if end < count, base.unsafelyUnwrapped[end] == UInt8(ascii: "\"") {
            index = end + 1
            return Self.classify(UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: end - start))
        }
        var scratch: [UInt8] = []
        let decoded = try parseString(scratch: &scratch)
        return Array(decoded.utf8).withUnsafeBufferPointer { Self.classify($0) }
    }

    private static func classify(_ key: UnsafeBufferPointer<UInt8>) -> QuickDrawKey {
        func equals(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == key.count else { return false }
            let bytes = literal.utf8Start
            for offset in 0..<key.count where bytes[offset] != key[offset] { return false }
            return true
        }
        switch key.count {
        case 4: return equals("word") ? .word : .other
        case 6: return equals("key_id") ? .keyID : .other
        case 7: return equals("drawing") ? .drawing : .other
        case 9: return equals("timestamp") ? .timestamp : .other
        case 10: return equals("recognized") ? .recognized : .other
        case 11: return equals("countrycode") ? .countryCode : .other
        case 14: return equals("stroke3_deltas") ? .stroke3Deltas : .other
        default: return .other
        }
    }

    /// Reads a JSON string (cursor on its opening quote), decoding escapes; rejects raw control
    /// characters, bad escapes, lone surrogates and invalid UTF-8.
    mutating func parseString(scratch: inout [UInt8]) throws(FormatError) -> String {
        index += 1
        let start = index
        var high: UInt8 = 0
        while index < count {
            let byte = base.unsafelyUnwrapped[index]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: index - start)
                index += 1
                // ASCII needs no validation (`String(validating:)` instantiates its generic
                // metadata on every call: 4 % of an NDJSON read).
                if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw FormatError(.record, "string is not valid UTF-8 (column \(start))")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character inside a string") }
            high |= byte
            index += 1
        }
        if index >= count { throw error("unterminated string") }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: index - start))
        while index < count {
            let byte = base.unsafelyUnwrapped[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scratch, as: UTF8.self) else {
                    throw FormatError(.record, "string is not valid UTF-8 (column \(start))")
                }
                return text
            case UInt8(ascii: "\\"):
                try decodeEscape(into: &scratch)
            case 0..<0x20:
                index -= 1
                throw error("control character inside a string")
            default:
                scratch.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func decodeEscape(into scratch: inout [UInt8]) throws(FormatError) {
        let escaped = peek()
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek() == UInt8(ascii: "\\") else { throw error("unpaired surrogate escape") }
                index += 1
                guard peek() == UInt8(ascii: "u") else { throw error("unpaired surrogate escape") }
                index += 1
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate escape")
            }
            scratch.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            index -= 1
            throw error("invalid escape in a string")
        }
    }

    private mutating func parseHex4() throws(FormatError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = peek()
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Reads `true` or `false`.
    mutating func parseBool(key: String) throws(FormatError) -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw error("key \"\(key)\": expected true or false")
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard count - index >= length else { return false }
        let bytes = literal.utf8Start
        for offset in 0..<length where base.unsafelyUnwrapped[index + offset] != bytes[offset] { return false }
        index += length
        return true
    }

    /// Reads a JSON array of numbers into the slots of `storage` from `start` on (`start` at most
    /// `storage.count`) and returns how many it read. The slots from `start` on are scratch space:
    /// `storage` grows (never shrinks) when the array does not fit, and the slots after the
    /// returned count are unspecified; those before `start` are left as they are. Filling a buffer
    /// instead of appending saves a uniqueness check per value.
    ///
    /// Every value must be finite with `|v| <= bound` (else `coordinate out of range`), and the
    /// array may hold at most `limit` values (else `too many points`): both are checked while
    /// reading, so `storage` never grows beyond `start + limit + 1` slots whatever the line holds.
    mutating func parseNumberArray(
        into storage: inout [Double], at start: Int = 0, what: @autoclosure () -> String,
        bound: Double, limit: Int
    ) throws(FormatError) -> Int {
        guard peek() == UInt8(ascii: "[") else { throw error("\(what()): expected an array of numbers") }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return 0
        }
        var count = 0
        while true {
            let outcome = storage.withUnsafeMutableBufferPointer { slots in
                parseNumbers(
                    into: UnsafeMutableBufferPointer(rebasing: slots[start..<Swift.min(slots.count, start + limit + 1)]),
                    count: &count, bound: bound)
            }
            switch outcome {
            case .finished:
                if count > limit {
                    throw error("\(DrawingLimits.tooManyPoints): \(what()) goes past \(DrawingLimits.maximumPoints) points in the drawing")
                }
                return count
            case .full:
                if count > limit {
                    throw error("\(DrawingLimits.tooManyPoints): \(what()) goes past \(DrawingLimits.maximumPoints) points in the drawing")
                }
                storage.append(
                    contentsOf: repeatElement(0, count: Swift.min(Swift.max(storage.count, 256), start + limit + 1 - storage.count)))
            case .nonNumeric:
                throw error("\(what()): non-numeric value at position \(count + 1)")
            case .outOfRange:
                throw error(
                    "\(DrawingLimits.coordinateOutOfRange): \(what()) position \(count + 1) is not finite"
                        + " or beyond ±\(Self.boundText(bound))")
            case .badSeparator:
                throw error("\(what()): expected ',' or ']' after a number")
            }
        }
    }

    /// Reads a JSON array of numbers like `parseNumberArray` (same errors, same count) but
    /// without keeping the values: for arrays that are only validated, such as timestamps
    /// nobody asked for. Arrays of plain integers are counted from their bytes alone; anything
    /// else is read by `parseNumberArray` into `scratch`.
    mutating func countNumberArray(
        scratch: inout [Double], what: @autoclosure () -> String,
        bound: Double, limit: Int
    ) throws(FormatError) -> Int {
        // Plain integers have at most 15 digits, so they stay within any bound of 10¹⁵ or more.
        if bound >= 1e15, let count = countPlainIntegerArray() {
            if count > limit {
                throw error("\(DrawingLimits.tooManyPoints): \(what()) goes past \(DrawingLimits.maximumPoints) points in the drawing")
            }
            return count
        }
        return try parseNumberArray(into: &scratch, what: what(), bound: bound, limit: limit)
    }

    /// `bound` as written in a reason (`1e+09` style for powers of ten).
    private static func boundText(_ bound: Double) -> String {
        var mantissa = bound
        var exponent = 0
        while mantissa >= 10 && mantissa.truncatingRemainder(dividingBy: 10) == 0 {
            mantissa /= 10
            exponent += 1
        }
        return mantissa == 1 && exponent >= 6 ? "1e\(exponent)" : "\(bound)"
    }

    /// Counts the values of an array of plain integers (`[` then non-negative integers of 1 to
    /// 15 digits without leading zeros, separated by commas, then `]`, whitespace allowed where
    /// JSON allows it) and moves past it; nil, cursor unchanged, for any other bytes. Every such
    /// array is one `parseNumberArray` reads without error, with the same count.
    private mutating func countPlainIntegerArray() -> Int? {
        guard let bytes = base, index < count, bytes[index] == UInt8(ascii: "[") else { return nil }
        var position = index + 1
        var lineBreak = false
        @inline(__always) func skipSpace() {
            while position < count {
                switch bytes[position] {
                case 0x20, 0x09: position += 1
                case 0x0A, 0x0D:
                    position += 1
                    lineBreak = true
                default: return
                }
            }
        }
        skipSpace()
        var values = 0
        while true {
            let numberStart = position
            // The digits' end from one 8-byte load when it lies within the eight.
            let run =
                position + 8 <= count
                ? Self.leadingDigitCount(Self.eightBytes(at: bytes + position)) : 8
            if run < 8 {
                position += run
            } else {
                while position < count && bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            }
            let digits = position - numberStart
            guard digits > 0, digits <= 15, digits == 1 || bytes[numberStart] != UInt8(ascii: "0") else { return nil }
            values += 1
            skipSpace()
            guard position < count else { return nil }
            let separator = bytes[position]
            position += 1
            if separator == UInt8(ascii: ",") {
                skipSpace()
            } else if separator == UInt8(ascii: "]") {
                index = position
                skippedLineBreak = skippedLineBreak || lineBreak
                return values
            } else {
                return nil
            }
        }
    }

    /// How `parseNumbers` stopped.
    private enum NumberListOutcome {
        case finished, full, nonNumeric, outOfRange, badSeparator
    }

    /// Reads numbers and their separators into `slots[count...]` until the closing `]` (consumed),
    /// a full buffer (before reading the next number) or an error (cursor at the fault). The
    /// array's first run of numbers of the files' two shapes is read by ``NumberRun``; whatever it
    /// stops at, and every value after that, one value at a time by ``parseNumber()``.
    @inline(__always)
    private mutating func parseNumbers(
        into slots: UnsafeMutableBufferPointer<Double>, count: inout Int,
        bound: Double
    ) -> NumberListOutcome {
        if count < slots.count {
            let run = NumberRun.read(
                base.unsafelyUnwrapped, count: self.count, from: index, into: slots.baseAddress.unsafelyUnwrapped + count,
                capacity: slots.count &- count, bound: bound)
            count &+= run.values
            index = run.position
            if run.closed { return .finished }
        }
        while count < slots.count {
            let next = peek()
            if next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D {
                skipWhitespace()
                continue
            }
            let start = index
            guard let value = parseNumber() else { return .nonNumeric }
            guard value.magnitude <= bound else {
                index = start
                return .outOfRange
            }
            slots[count] = value
            count += 1
            skipWhitespace()
            let byte = peek()
            if byte == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                continue
            }
            if byte == UInt8(ascii: "]") {
                index += 1
                return .finished
            }
            return .badSeparator
        }
        skipWhitespace()
        return .full
    }

    /// Reads one JSON number, or returns nil (cursor unchanged) when the bytes are not one.
    /// A number too large for `Double` (e.g. `1e400`) reads as infinity.
    @inline(__always)
    mutating func parseNumber() -> Double? {
        let start = index
        var position = index
        let bytes = base.unsafelyUnwrapped
        @inline(__always) func digit(_ at: Int) -> UInt8? {
            guard at < count else { return nil }
            let value = bytes[at] &- UInt8(ascii: "0")
            return value < 10 ? value : nil
        }
        let negative = position < count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        if count - position >= 24, let decimal = Self.shortDecimal(at: bytes + position) {
            index = position + decimal.length
            return Self.value(
                mantissa: decimal.mantissa, exponent: -decimal.fractionDigits, exact: true, negative: negative,
                token: UnsafeBufferPointer(start: bytes + start, count: index - start))
        }
        guard let first = digit(position) else { return nil }
        var mantissa = UInt64(first)
        var exponent = 0
        var exact = true
        position += 1
        if first != 0 {
            while let next = digit(position) {
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa &* 10 &+ UInt64(next)
                } else {
                    exact = false
                }
                position += 1
            }
        }
        if position < count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digit(position) != nil else { return nil }
            // Eight digits at a time while they fit: the raw files' coordinates have 15 or more
            // fraction digits. The same mantissa and exponent as digit by digit below, since a
            // mantissa under 10⁹ stays under the 10¹⁷ bound for all eight.
            while mantissa < 1_000_000_000, position + 8 <= count, let eight = Self.eightDigits(bytes + position) {
                mantissa = mantissa &* 100_000_000 &+ eight
                exponent -= 8
                position += 8
            }
            while let next = digit(position) {
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa &* 10 &+ UInt64(next)
                    exponent -= 1
                } else {
                    exact = false
                }
                position += 1
            }
        }
        if position < count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard digit(position) != nil else { return nil }
            var written = 0
            while let next = digit(position) {
                if written < 100_000 { written = written * 10 + Int(next) }
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        index = position
        return Self.value(
            mantissa: mantissa, exponent: exponent, exact: exact, negative: negative,
            token: UnsafeBufferPointer(start: bytes + start, count: position - start))
    }

    /// The value of a number token read as `mantissa × 10^exponent` (`exact`: no digit was
    /// dropped from the mantissa): the exact fast path, the checked decimal path, else `strtod`
    /// of the token.
    @inline(__always)
    private static func value(
        mantissa: UInt64, exponent: Int, exact: Bool, negative: Bool, token: UnsafeBufferPointer<UInt8>
    ) -> Double {
        if exact, let value = JSONNumberParser.fastPath(mantissa: mantissa, exponent: exponent, negative: negative) {
            return value
        }
        if exact, exponent < 0,
            let value = JSONNumberParser.decimalPath(mantissa: mantissa, fractionDigits: -exponent, negative: negative)
        {
            return value
        }
        return JSONNumberParser.slowPath(token)
    }

    /// Reads the decimal at `bytes` when it has the raw files' shape, 1 to 7 integer digits (no
    /// leading zero before another digit), a point and 1 to 15 fraction digits, at most 18
    /// digits in all and no exponent after them, from three 8-byte loads and no loop whose exit
    /// depends on the number's length: its digits as one integer, its fraction digits and its
    /// length in bytes. The caller guarantees 24 readable bytes. Nil for any other bytes, which
    /// the byte-by-byte reading of ``parseNumber()`` takes; for the bytes taken here it finds the
    /// same digits, so the same value.
    @inline(__always)
    static func shortDecimal(at bytes: UnsafePointer<UInt8>) -> (mantissa: UInt64, fractionDigits: Int, length: Int)? {
        let head = eightBytes(at: bytes)
        let integerDigits = leadingDigitCount(head)
        guard integerDigits > 0, integerDigits < 8, bytes[integerDigits] == UInt8(ascii: "."),
            integerDigits == 1 || bytes[0] != UInt8(ascii: "0"),
            let decimal = shortDecimal(at: bytes, head: head, integerDigits: integerDigits),
            bytes[decimal.length] | 0x20 != UInt8(ascii: "e")
        else { return nil }
        return decimal
    }

    /// ``shortDecimal(at:)`` after its first load: `head` is the eight bytes at `bytes`, whose
    /// first `integerDigits` (1 to 7, no leading zero before another digit) are digits followed
    /// by the point; the caller looks at the byte after the digits (an exponent's `e` makes the
    /// value another shape). `NumberRun` calls it with the load and the count it already made,
    /// and needs no look for an exponent: only a comma or `]` after the digits takes the value.
    /// The caller guarantees 24 readable bytes.
    @inline(__always)
    static func shortDecimal(
        at bytes: UnsafePointer<UInt8>, head: UInt64, integerDigits: Int
    ) -> (mantissa: UInt64, fractionDigits: Int, length: Int)? {
        let first = eightBytes(at: bytes + integerDigits + 1)
        let firstDigits = leadingDigitCount(first)
        guard firstDigits > 0 else { return nil }
        // Each run of digits moved to the top of its eight (zeros before them), then converted.
        let integer = value(ofDigits: head &<< UInt64(64 - 8 * integerDigits))
        if firstDigits < 8 {
            let mantissa = integer &* powerOfTen(firstDigits) &+ value(ofDigits: first &<< UInt64(64 - 8 * firstDigits))
            return (mantissa, firstDigits, integerDigits + 1 + firstDigits)
        }
        let second = eightBytes(at: bytes + integerDigits + 9)
        let secondDigits = leadingDigitCount(second)
        let fractionDigits = 8 + secondDigits
        guard secondDigits < 8, integerDigits + fractionDigits <= 18 else { return nil }
        var mantissa = integer &* 100_000_000 &+ value(ofDigits: first)
        if secondDigits > 0 {
            mantissa = mantissa &* powerOfTen(secondDigits) &+ value(ofDigits: second &<< UInt64(64 - 8 * secondDigits))
        }
        return (mantissa, fractionDigits, integerDigits + 1 + fractionDigits)
    }

    /// 10^`exponent` for 0 ≤ `exponent` ≤ 8. Not a switch over every power up to 10¹⁹ shared with
    /// `JSONNumberParser`'s table: with that one the compiler no longer inlined
    /// ``shortDecimal(at:)``, and a read of the shared raw drawings ran 10 M more instructions
    /// (under callgrind, 1.6 % of it).
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// The value of the eight ASCII digits at `bytes`, or nil when any of the eight bytes is not a
    /// digit (SWAR: one unaligned load, the check and the conversion in a few multiplies).
    @inline(__always)
    static func eightDigits(_ bytes: UnsafePointer<UInt8>) -> UInt64? {
        let chunk = eightBytes(at: bytes)
        return leadingDigitCount(chunk) == 8 ? value(ofDigits: chunk) : nil
    }

    /// The eight bytes at `bytes` (unaligned) as one little-endian word: the first in its low byte.
    @inline(__always)
    static func eightBytes(at bytes: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    }

    /// How many of the eight bytes of `chunk` (the first in its low byte) are ASCII digits
    /// before the first byte that is not (8 when all are).
    @inline(__always)
    static func leadingDigitCount(_ chunk: UInt64) -> Int {
        // A byte is a digit when it is at least 0x30 and adding 0x46 does not carry into its top
        // bit. A carry or borrow only crosses out of a byte that is not a digit, so every flag up
        // to the first non-digit is exact.
        let notDigits = ((chunk &+ 0x4646_4646_4646_4646) | (chunk &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
        return notDigits.trailingZeroBitCount &>> 3
    }

    /// The decimal value of the eight ASCII digits of `chunk`, the first in its low byte (a zero
    /// byte counts as the digit 0).
    @inline(__always)
    static func value(ofDigits chunk: UInt64) -> UInt64 {
        var value = chunk & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) >> 8  // pairs: 10 · first + second
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16  // quadruples
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    /// Skips any JSON value (the value of an unknown key), checking its grammar.
    mutating func skipValue(depth: Int) throws(FormatError) {
        guard depth < Self.maximumSkipDepth else { throw error("value nested too deeply") }
        switch peek() {
        case UInt8(ascii: "\""):
            var scratch: [UInt8] = []
            _ = try parseString(scratch: &scratch)
        case UInt8(ascii: "{"):
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                var scratch: [UInt8] = []
                _ = try parseString(scratch: &scratch)
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':' after a key")
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "expected ',' or '}' in an object")
                return
            }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
                return
            }
        default:
            if matchLiteral("true") || matchLiteral("false") || matchLiteral("null") { return }
            if parseNumber() == nil { throw error("expected a JSON value") }
        }
    }
}
