/// Reads the run of plain integers that a JSON number array of Quick, Draw! coordinates or times
/// is, as Google writes them (`[183,178,174]`) and as Python's `json.dumps` writes them (`[183,
/// 178, 174]`, Kaggle's CSV): each value 1 to 7 digits with no sign, leading zero, fraction or
/// exponent, followed by `,` or `]`, each comma followed by the next value at once or by one blank
/// and the next value. It stops before the first value of any other shape, which the caller reads
/// (`JSONCursor.parseNumber`), as it does every value within 9 bytes of the end of the bytes.
///
/// One value is read from one 8-byte load: its digits and the separator after them from the load,
/// its value by three multiplies (`JSONCursor.value(ofDigits:)`), so a value costs no loop and no
/// second look at its bytes; the state stays in registers, with no bounds or overflow checks in the
/// loop. A plain integer of up to 7 digits is exact in a `Double`, the value `parseNumber` gives it.
enum PlainIntegerRun {
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
    /// `slots[0..<capacity]` while they have the shape above and are at most `bound`.
    @inline(__always)
    static func read(
        _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int, into slots: UnsafeMutablePointer<Double>,
        capacity: Int, bound: Double
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
            let separator = UInt8(truncatingIfNeeded: chunk &>> UInt64(truncatingIfNeeded: digits &* 8))
            guard digits > 0, digits == 1 || UInt8(truncatingIfNeeded: chunk) != UInt8(ascii: "0") else {
                // `, `: the first blank after a comma makes the gap two bytes from here on.
                if digits == 0, gap == 1, values > 0, UInt8(truncatingIfNeeded: chunk) == 0x20 {
                    gap = 2
                    position &+= 1
                    continue
                }
                break
            }
            // The digits moved to the top of the eight (zeros before them), then converted.
            let value = Double(JSONCursor.value(ofDigits: chunk &<< UInt64(truncatingIfNeeded: 64 &- digits &* 8)))
            guard value <= bound else { break }
            if separator == UInt8(ascii: ",") {
                slots[values] = value
                values &+= 1
                position &+= digits &+ 1
                if gap == 2 {
                    // A comma without its blank: one byte from here on.
                    if bytes[position] == 0x20 { position &+= 1 } else { gap = 1 }
                }
                continue
            }
            if separator == UInt8(ascii: "]") {
                slots[values] = value
                return Outcome(values: values &+ 1, position: position &+ digits &+ 1, closed: true)
            }
            break
        }
        return Outcome(values: values, position: position, closed: false)
    }
}
