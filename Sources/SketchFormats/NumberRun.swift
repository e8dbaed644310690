/// Reads the run of numbers that a JSON number array of Quick, Draw! coordinates or times is, in
/// the two shapes the files write: plain integers of 1 to 7 digits (`183`; no sign, leading zero,
/// fraction or exponent) and decimals of the raw files' other shape (`33.507999420166016`: 1 to 7
/// integer digits, a point, 1 to 15 fraction digits, `JSONCursor.shortDecimal`). Each value is
/// followed by `,` or `]`, each comma by the next value at once (Google's files) or by one blank and
/// the next value (Python's `json.dumps`, Kaggle's CSV). It stops before the first value of any
/// other shape, or one whose exact conversion needs `strtod`, which the caller reads
/// (`JSONCursor.parseNumber`), as it does every value within 9 bytes of the end of the bytes and
/// every decimal within 24.
///
/// An integer is read from one 8-byte load: its digits and the separator after them from the load,
/// its value by three multiplies (`JSONCursor.value(ofDigits:)`); a decimal from three
/// (`JSONCursor.shortDecimal`) and converted as `parseNumber` converts it
/// (`JSONNumberParser.fastPath`, else `decimalPath`), so every value is the double `parseNumber`
/// gives it. The state stays in registers, with no bounds or overflow checks in the loop.
enum NumberRun {
    /// What ``read(_:count:from:into:capacity:bound:)`` read.
    struct Outcome {
        /// Values written.
        var values: Int
        /// The first byte not read: a value's first byte, the byte after a comma, or the byte after
        /// the closing `]`.
        var position: Int
        /// Whether the last value read closed the array (its `]` read).
        var closed: Bool
    }

    /// Reads values from `bytes[position...]` (a value's first byte, or the byte after a comma) into
    /// `slots[0..<capacity]` while they have the shapes above and are at most `bound`: plain
    /// integers by the loop made for them alone, then, if it stopped short, integers and decimals by
    /// the loop made for both (one source, two copies). Google's simplified files and every `t`
    /// array hold only integers; with the one loop for both, telling decimals apart at every value,
    /// read + decode under callgrind took 3 % more instructions for 71,000 simplified drawings
    /// (1,362.9 → 1,403.3 M) and 5 % more for the shared raw ones (524.2 → 551.8 M).
    @inline(__always)
    static func read(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double
    ) -> Outcome {
        let integers = run(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, decimals: false)
        guard !integers.closed && integers.values < capacity else { return integers }
        let rest = mixed(
            bytes, count: count, from: integers.position, into: slots + integers.values, capacity: capacity &- integers.values,
            bound: bound)
        return Outcome(values: integers.values &+ rest.values, position: rest.position, closed: rest.closed)
    }

    /// The loop for plain integers and short decimals, made apart from the one for integers alone.
    @inline(never)
    private static func mixed(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double
    ) -> Outcome {
        run(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, decimals: true)
    }

    /// The plain integers from `start` on, and with `decimals` the short decimals too.
    @inline(__always)
    private static func run(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double, decimals: Bool
    ) -> Outcome {
        var position = start
        var values = 0
        // Bytes from a value's last digit to the next value's first: 1 (`,`), or 2 once the
        // array's commas are seen to be followed by a blank (`, `).
        var gap = 1
        // Each value's load reads 8 bytes, and the byte after a comma one more.
        let last = count &- 9
        while values < capacity && position <= last {
            let chunk = JSONCursor.eightBytes(at: bytes + position)
            // 0 to 7 (the top byte's flag set, so eight digits read as seven and a digit after them).
            let digits = JSONCursor.leadingDigitCount(chunk | 0x8000_0000_0000_0000)
            var separator = UInt8(truncatingIfNeeded: chunk &>> UInt64(truncatingIfNeeded: digits &* 8))
            guard digits > 0, digits == 1 || UInt8(truncatingIfNeeded: chunk) != UInt8(ascii: "0") else {
                if startsGap(chunk, digits: digits, gap: &gap, afterValue: values > 0) {
                    position &+= 1
                    continue
                }
                break
            }
            let value: Double
            var length = digits
            if decimals && separator == UInt8(ascii: ".") {
                // 24 bytes for `shortDecimal`'s loads; a short decimal is at most 19 (18 digits and
                // its point), so its separator and the byte after a comma lie within them.
                guard count &- position >= 24, let decimal = JSONCursor.shortDecimal(at: bytes + position),
                    let exact = JSONNumberParser.fastPath(mantissa: decimal.mantissa, exponent: -decimal.fractionDigits, negative: false)
                        ?? JSONNumberParser.decimalPath(mantissa: decimal.mantissa, fractionDigits: decimal.fractionDigits, negative: false)
                else { break }
                value = exact
                length = decimal.length
                separator = bytes[position &+ length]
            } else {
                // The digits moved to the top of the eight (zeros before them), then converted.
                value = Double(JSONCursor.value(ofDigits: chunk &<< UInt64(truncatingIfNeeded: 64 &- digits &* 8)))
            }
            guard value <= bound else { break }
            if separator == UInt8(ascii: ",") {
                slots[values] = value
                values &+= 1
                position &+= length &+ 1
                position &+= blankAfterComma(bytes, at: position, gap: &gap)
                continue
            }
            if separator == UInt8(ascii: "]") {
                slots[values] = value
                return Outcome(values: values &+ 1, position: position &+ length &+ 1, closed: true)
            }
            break
        }
        return Outcome(values: values, position: position, closed: false)
    }

    /// Whether the bytes at a position where no value starts are the first blank after a comma
    /// (`, `), which makes the gap two bytes from here on.
    @inline(__always)
    private static func startsGap(_ chunk: UInt64, digits: Int, gap: inout Int, afterValue: Bool) -> Bool {
        guard digits == 0, gap == 1, afterValue, UInt8(truncatingIfNeeded: chunk) == 0x20 else { return false }
        gap = 2
        return true
    }

    /// The blank to step over at `position`, just after a comma: 1 while the gap is two bytes and
    /// the blank is there, else 0 (a comma without its blank makes the gap one byte from here on).
    @inline(__always)
    private static func blankAfterComma(_ bytes: UnsafePointer<UInt8>, at position: Int, gap: inout Int) -> Int {
        guard gap == 2 else { return 0 }
        if bytes[position] == 0x20 { return 1 }
        gap = 1
        return 0
    }
}
