/// Reads the run of numbers that a JSON number array of Quick, Draw! coordinates or times is, in
/// the two shapes the files write: plain integers of 1 to 7 digits (`183`; no sign, leading zero,
/// fraction or exponent) and decimals of the raw files' other shape (`33.507999420166016`: 1 to 7
/// integer digits, a point, 1 to 15 fraction digits, `JSONCursor.shortDecimal`). Each value is
/// followed by `,` or `]`, and every comma of the array by the next value at once (Google's files)
/// or every one by one blank and the next value (Python's `json.dumps`, Kaggle's CSV). It stops
/// before the first value of any other shape or after any other separator, or at a value whose
/// exact conversion needs `strtod`, and the caller reads on from there (`JSONCursor.parseNumber`), as
/// it does every value within 9 bytes of the end of the bytes and every decimal within 24.
///
/// An integer is read from one 8-byte load: its digits and the separator after them from the load
/// (with blanks, the comma and its blank too, for up to 6 digits), its value by three multiplies
/// (`JSONCursor.value(ofDigits:)`); a decimal from that load and up to two more
/// (`JSONCursor.shortDecimal(at:head:integerDigits:)`) and converted as `parseNumber` converts it
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

        /// This outcome followed by `next`, read from where this one stopped.
        func joined(_ next: Outcome) -> Outcome {
            Outcome(values: values &+ next.values, position: next.position, closed: next.closed)
        }
    }

    /// Reads values from `bytes[position...]` (a value's first byte, or the byte after a comma) into
    /// `slots[0..<capacity]` while they have the shapes above and are at most `bound`, by four copies
    /// of one loop: plain integers by the copy made for them alone; if it stopped short, integers
    /// and decimals by the copy for both, or, when it stopped at a blank after a comma, by the two
    /// copies for arrays whose every comma has its blank (integers, then integers and decimals;
    /// only the second when the copy for both stopped at such a blank). The two copies for plain
    /// integers check the bound only under 10^7 (``integerRun(_:count:from:into:capacity:bound:shape:)``).
    /// Google's simplified files and every `t` array hold only integers; with one loop for both,
    /// telling decimals apart at every value, read + decode under callgrind took 3 % more
    /// instructions for 71,000 simplified drawings (1,362.9 → 1,403.3 M) and 5 % more for the
    /// shared raw ones (524.2 → 551.8 M). Blanks have copies of their own so that no copy's next
    /// value waits on the load of the byte after a comma (Kaggle's CSV, read + decode: 0.92 → 0.99×
    /// NDJSON's per-core rate, Benchmarks/README.md).
    @inline(__always)
    static func read(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double
    ) -> Outcome {
        let integers = integerRun(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, shape: .integers)
        guard !integers.closed && integers.values < capacity else { return integers }
        return integers.joined(
            rest(
                bytes, count: count, from: integers.position, into: slots + integers.values, capacity: capacity &- integers.values,
                bound: bound, afterValue: integers.values > 0))
    }

    /// The values one copy of the loop reads.
    private enum Shape {
        /// Plain integers, a comma without a blank.
        case integers
        /// Plain integers and short decimals, a comma without a blank.
        case mixed
        /// Plain integers, every comma with its blank.
        case spacedIntegers
        /// Plain integers and short decimals, every comma with its blank.
        case spacedMixed

        var decimals: Bool { self == .mixed || self == .spacedMixed }
        var blanks: Bool { self == .spacedIntegers || self == .spacedMixed }
    }

    /// The other copies of the loop, after the first stopped short at `start` (`afterValue`: after
    /// reading a value), made apart from it.
    @inline(never)
    private static func rest(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double, afterValue: Bool
    ) -> Outcome {
        // Whether `position`, after a value, is the blank after a comma.
        func blank(at position: Int) -> Bool { position < count && bytes[position] == 0x20 }
        guard afterValue && blank(at: start) else {
            let mixed = run(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, shape: .mixed)
            guard !mixed.closed && mixed.values < capacity && (afterValue || mixed.values > 0) && blank(at: mixed.position)
            else { return mixed }
            return mixed.joined(
                run(
                    bytes, count: count, from: mixed.position &+ 1, into: slots + mixed.values, capacity: capacity &- mixed.values,
                    bound: bound, shape: .spacedMixed))
        }
        let spaced = integerRun(
            bytes, count: count, from: start &+ 1, into: slots, capacity: capacity, bound: bound, shape: .spacedIntegers)
        guard !spaced.closed && spaced.values < capacity else { return spaced }
        return spaced.joined(
            run(
                bytes, count: count, from: spaced.position, into: slots + spaced.values, capacity: capacity &- spaced.values,
                bound: bound, shape: .spacedMixed))
    }

    /// Every plain integer a loop reads has at most 7 digits, so it is under this.
    private static let plainIntegerCeiling = 10_000_000.0

    /// ``run(_:count:from:into:capacity:bound:shape:checksBound:)`` for a shape of plain integers:
    /// by a copy without the bound's check under a bound of 10^7 or more (every bound of
    /// `DrawingLimits`): a read of the shared raw drawings by `sketchprep.read`, 3.75 M plain
    /// integers, runs 1.9 % fewer instructions than with the check.
    @inline(__always)
    private static func integerRun(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double, shape: Shape
    ) -> Outcome {
        bound >= plainIntegerCeiling
            ? run(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, shape: shape, checksBound: false)
            : run(bytes, count: count, from: start, into: slots, capacity: capacity, bound: bound, shape: shape, checksBound: true)
    }

    /// The values of `shape` from `start` on; with `checksBound` false, every value read is taken
    /// to be at most `bound`.
    @inline(__always)
    private static func run(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double, shape: Shape, checksBound: Bool = true
    ) -> Outcome {
        var position = start
        var values = 0
        // Each value's load reads 8 bytes, and the byte after a comma one more.
        let last = count &- 9
        while values < capacity && position <= last {
            let chunk = JSONCursor.eightBytes(at: bytes + position)
            // 0 to 7 (the top byte's flag set, so eight digits read as seven and a digit after them).
            let digits = JSONCursor.leadingDigitCount(chunk | 0x8000_0000_0000_0000)
            var separator = UInt8(truncatingIfNeeded: chunk &>> UInt64(truncatingIfNeeded: digits &* 8))
            guard digits > 0, digits == 1 || UInt8(truncatingIfNeeded: chunk) != UInt8(ascii: "0") else { break }
            let value: Double
            var length = digits
            // With blanks: whether the integer's comma and its blank are both in the load (up to 6
            // digits), so that the blank needs no load of its own.
            var commaAndBlank = false
            if shape.decimals && separator == UInt8(ascii: ".") {
                // 24 bytes for `shortDecimal`'s loads; a short decimal is at most 19 (18 digits and
                // its point), so its separator and the byte after a comma lie within them.
                guard count &- position >= 24,
                    let decimal = JSONCursor.shortDecimal(at: bytes + position, head: chunk, integerDigits: digits),
                    let exact = JSONNumberParser.fastPath(mantissa: decimal.mantissa, exponent: -decimal.fractionDigits, negative: false)
                        ?? JSONNumberParser.decimalPath(mantissa: decimal.mantissa, fractionDigits: decimal.fractionDigits, negative: false)
                else { break }
                value = exact
                length = decimal.length
                separator = bytes[position &+ length]
            } else {
                // The digits moved to the top of the eight (zeros before them), then converted.
                value = Double(JSONCursor.value(ofDigits: chunk &<< UInt64(truncatingIfNeeded: 64 &- digits &* 8)))
                if shape.blanks {
                    commaAndBlank = UInt16(truncatingIfNeeded: chunk &>> UInt64(truncatingIfNeeded: digits &* 8)) == 0x202C
                }
            }
            guard !checksBound || value <= bound else { break }
            if shape.blanks && commaAndBlank {
                slots[values] = value
                values &+= 1
                position &+= length &+ 2
                continue
            }
            if separator == UInt8(ascii: ",") {
                slots[values] = value
                values &+= 1
                position &+= length &+ 1
                if shape.blanks {
                    guard bytes[position] == 0x20 else { break }
                    position &+= 1
                }
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
}
