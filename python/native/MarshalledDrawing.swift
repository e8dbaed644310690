import SketchCore

/// One drawing as `marshal.dumps(drawing, 2)` writes plain NDJSON-style lists: a list of strokes,
/// each a list of 2 or 3 lists of numbers (exact `int`, `float` or `bool`). The marshaller walks
/// the nested lists in C and refuses every other type itself, so no Python code runs per number.
///
/// `write` produces the same format for the simplified strokes, which `marshal.loads` turns
/// into Python lists in one call.
///
/// Format version 2 writes each list as `[` and an int32 count, then its items; an int as `i`
/// and an int32, or beyond 32 bits as `l`, a signed int32 digit count and that many 15-bit
/// digits (uint16), least significant first; a float as `g` and 8 bytes; `T`/`F` for booleans;
/// all little-endian, with no object references. Only those are read; anything else is declined.
/// Nothing here is trusted: every read is bounds-checked, and every check the NDJSON parser
/// applies (shape, counts, timestamps, coordinates) is applied, but without reasons: a declined
/// drawing takes the checked path that names the reason (`simplify` in sketchprep/strokes.py).
struct MarshalledDrawing {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// The type codes read and written.
    private enum Code {
        static let list = UInt8(ascii: "["), int = UInt8(ascii: "i"), long = UInt8(ascii: "l"), float = UInt8(ascii: "g")
        static let `true` = UInt8(ascii: "T"), `false` = UInt8(ascii: "F")
    }

    /// The marshalled data: `count` bytes at `start`.
    init(_ start: UnsafeRawPointer, count: Int) { bytes = UnsafeRawBufferPointer(start: start, count: count) }

    /// Replaces `strokes` with the drawing's strokes; false when the data is not such a drawing
    /// or the drawing is one the CLI refuses.
    mutating func read(into strokes: inout FlatStrokes, scratch: inout [Double]) -> Bool {
        strokes.removeAll()
        guard let strokeCount = list(), (1...DrawingLimits.maximumStrokes).contains(strokeCount) else { return false }
        for _ in 0..<strokeCount {
            guard let arrays = list(), arrays == 2 || arrays == 3 else { return false }
            let room = DrawingLimits.maximumPoints - strokes.x.count
            scratch.removeAll(keepingCapacity: true)
            guard let count = list(), count >= 1, count <= room,
                numbers(count, bound: DrawingLimits.maximumCoordinateMagnitude, into: &scratch),
                list() == count, numbers(count, bound: DrawingLimits.maximumCoordinateMagnitude, into: &scratch),
                arrays == 2
                    || (list() == count && numbers(count, bound: DrawingLimits.maximumTimestampMagnitude, keep: false, into: &scratch))
            else { return false }
            scratch.withUnsafeBufferPointer { values in
                strokes.appendStroke(x: UnsafeBufferPointer(rebasing: values[..<count]), y: UnsafeBufferPointer(rebasing: values[count...]))
            }
        }
        return position == bytes.count
    }

    /// A list's item count, or nil when the next object is not a list.
    private mutating func list() -> Int? {
        guard byte() == Code.list, let count = load(Int32.self) else { return nil }
        return Int(Int32(littleEndian: count))
    }

    /// Reads `count` numbers within ±`bound`, appending them to `values` when `keep`.
    private mutating func numbers(_ count: Int, bound: Double, keep: Bool = true, into values: inout [Double]) -> Bool {
        for _ in 0..<count {
            guard let value = number(), value.magnitude <= bound else { return false }
            if keep { values.append(value) }
        }
        return true
    }

    /// The next number, or nil when the next object is not one.
    @inline(__always)
    private mutating func number() -> Double? {
        if bytes.count - position >= 5, bytes[position] == Code.int {  // the usual case first
            defer { position += 5 }
            return Double(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 1, as: Int32.self)))
        }
        switch byte() {
        case Code.float: return load(UInt64.self).map { Double(bitPattern: UInt64(littleEndian: $0)) }
        case Code.long: return long()
        case Code.true: return 1
        case Code.false: return 0
        default: return nil
        }
    }

    /// A long's digits: at most 4 here (60 bits; longer ones are beyond every bound).
    private mutating func long() -> Double? {
        guard let size = load(Int32.self).map({ Int32(littleEndian: $0) }), (-4...4).contains(size) else { return nil }
        var magnitude: Int64 = 0
        for digit in 0..<Int(size.magnitude) {
            guard let value = load(UInt16.self).map({ UInt16(littleEndian: $0) }), value < 1 << 15 else { return nil }
            magnitude |= Int64(value) << (15 * digit)
        }
        return Double(size < 0 ? -magnitude : magnitude)
    }

    @inline(__always)
    private mutating func byte() -> UInt8? { load(UInt8.self) }

    /// The next `T`'s raw bytes, or nil past the end.
    @inline(__always)
    private mutating func load<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard MemoryLayout<T>.size <= bytes.count - position else { return nil }
        defer { position += MemoryLayout<T>.size }
        return bytes.loadUnaligned(fromByteOffset: position, as: T.self)
    }

    /// Writes `strokes` as `[[[x...], [y...]], ...]` in the marshal format into `output`; the bytes
    /// written, or -1 when they do not fit or a coordinate is not an Int32.
    static func write(_ strokes: FlatStrokes, to output: UnsafeMutableRawBufferPointer) -> Int64 {
        let itemBytes = 5  // a type code and an int32
        guard itemBytes * (1 + 3 * strokes.strokeCount + 2 * strokes.x.count) <= output.count else { return -1 }
        var position = 0
        func put(_ code: UInt8, _ value: Int32) {
            output[position] = code
            output.storeBytes(of: value.littleEndian, toByteOffset: position + 1, as: Int32.self)
            position += itemBytes
        }
        func put(_ coordinates: [Double], _ points: Range<Int>) -> Bool {
            put(Code.list, Int32(points.count))
            for point in points {
                guard let value = Int32(exactly: coordinates[point]) else { return false }
                put(Code.int, value)
            }
            return true
        }
        put(Code.list, Int32(strokes.strokeCount))
        for stroke in 0..<strokes.strokeCount {
            let points = strokes.pointRange(ofStroke: stroke)
            put(Code.list, 2)
            guard put(strokes.x, points), put(strokes.y, points) else { return -1 }
        }
        return Int64(position)
    }
}
