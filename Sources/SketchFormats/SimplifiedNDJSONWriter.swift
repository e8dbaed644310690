import SketchCore
import SketchIO

/// Writes records in the layout of Google's simplified NDJSON files: keys in the order
/// `word, countrycode, timestamp, recognized, key_id, drawing`, no spaces, strokes as
/// `[[x...],[y...]]` with integer coordinates (exact decimals for non-integral ones), one record per line. Writes go through an
/// `AtomicFileWriter`, so the file appears only on `commit()`.
public final class SimplifiedNDJSONWriter {
    private let file: AtomicFileWriter
    private var line: [UInt8] = []
    /// Records written so far.
    public private(set) var count = 0
    /// Bytes written so far.
    public var bytesWritten: Int { file.bytesWritten }

    /// Opens `path` for writing (atomically).
    public init(path: String) throws {
        file = try AtomicFileWriter(path: path)
        line.reserveCapacity(1 << 16)
    }

    /// Appends one record. Integral coordinates are written as integers, others (float64
    /// stroke-3 input) in the shortest decimal form that reads back as the same `Double`; they
    /// must be finite and within `Int`'s range. Timestamps (`t`) are not written.
    public func write(_ record: SketchRecord, stroke3Deltas: [Double]? = nil) throws {
        line.removeAll(keepingCapacity: true)
        Self.encode(record, stroke3Deltas: stroke3Deltas, into: &line)
        try finishLine()
    }

    /// Appends one record with `strokes` as its drawing (`record.drawing` is not read), as
    /// `write(_:)` would write it with that drawing.
    public func write(_ record: SketchRecord, strokes: FlatStrokes) throws {
        line.removeAll(keepingCapacity: true)
        Self.encode(record, strokes: strokes, into: &line)
        try finishLine()
    }

    private func finishLine() throws {
        line.append(0x0A)
        try file.write(line)
        count += 1
    }

    /// Flushes and moves the file into place.
    public func commit() throws {
        try file.commit()
    }

    /// Appends the JSON text of `record` (without a newline) to `bytes`; strokes with times
    /// (raw strokes, e.g. an SVG sketch's) are written `[[x…],[y…],[t…]]`, and a float64 stroke-3
    /// record's exact deltas (`Stroke3.exactDeltas`) as the key `stroke3_deltas` after the drawing.
    public static func encode(_ record: SketchRecord, stroke3Deltas: [Double]? = nil, into bytes: inout [UInt8]) {
        appendFields(of: record, to: &bytes)
        for (index, stroke) in record.drawing.strokes.enumerated() {
            stroke.x.withUnsafeBufferPointer { x in
                stroke.y.withUnsafeBufferPointer { y in
                    appendStroke(x: x, y: y, isFirst: index == 0, to: &bytes)
                }
            }
            if !stroke.t.isEmpty {
                // A raw stroke keeps its times: `[x…],[y…]` becomes `[x…],[y…],[t…]`.
                bytes.removeLast()
                bytes.append(UInt8(ascii: ","))
                stroke.t.withUnsafeBufferPointer { appendNumbers($0, to: &bytes) }
                bytes.append(UInt8(ascii: "]"))
            }
        }
        appendEnd(stroke3Deltas, to: &bytes)
    }

    /// Appends the JSON text of `record` with `strokes` as its drawing (without a newline) to `bytes`.
    public static func encode(_ record: SketchRecord, strokes: FlatStrokes, stroke3Deltas: [Double]? = nil, into bytes: inout [UInt8]) {
        appendFields(of: record, to: &bytes)
        strokes.x.withUnsafeBufferPointer { x in
            strokes.y.withUnsafeBufferPointer { y in
                for index in 0..<strokes.strokeCount {
                    let points = strokes.pointRange(ofStroke: index)
                    appendStroke(
                        x: UnsafeBufferPointer(rebasing: x[points]), y: UnsafeBufferPointer(rebasing: y[points]),
                        isFirst: index == 0, to: &bytes)
                }
            }
        }
        appendEnd(stroke3Deltas, to: &bytes)
    }

    /// The `]` closing the drawing, `"stroke3_deltas"` when there are any, and the `}`.
    private static func appendEnd(_ stroke3Deltas: [Double]?, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "]"))
        if let deltas = stroke3Deltas {
            bytes.append(contentsOf: #","stroke3_deltas":"#.utf8)
            deltas.withUnsafeBufferPointer { appendNumbers($0, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The keys before the strokes, up to and including the `[` that opens the drawing.
    private static func appendFields(of record: SketchRecord, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"word":"#.utf8)
        appendString(record.word, to: &bytes)
        bytes.append(contentsOf: #","countrycode":"#.utf8)
        appendString(record.countryCode, to: &bytes)
        bytes.append(contentsOf: #","timestamp":"#.utf8)
        appendString(record.timestamp, to: &bytes)
        bytes.append(
            contentsOf: record.recognized
                ? #","recognized":true,"key_id":"#.utf8
                : #","recognized":false,"key_id":"#.utf8)
        appendString(record.keyID, to: &bytes)
        bytes.append(contentsOf: #","drawing":["#.utf8)
    }

    /// `[[x...],[y...]]`, preceded by a comma unless it is the first stroke.
    private static func appendStroke(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        isFirst: Bool, to bytes: inout [UInt8]
    ) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        appendNumbers(x, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        appendNumbers(y, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Longest text of one value and its separator: a sign, 17 significant digits, a point, an
    /// exponent of up to 5 characters and a comma.
    private static let maximumValueLength = 26

    /// `[v,v,...]`, written into room reserved for the longest possible text and trimmed after.
    private static func appendNumbers(_ values: UnsafeBufferPointer<Double>, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 2 + values.count * maximumValueLength))
        let end = bytes.withUnsafeMutableBufferPointer { output in
            var position = start
            output[position] = UInt8(ascii: "[")
            position += 1
            for (index, value) in values.enumerated() {
                if index > 0 {
                    output[position] = UInt8(ascii: ",")
                    position += 1
                }
                // Simplified coordinates are integral already; truncation is exact for them and
                // avoids a library call per value. Anything else keeps its exact value.
                let truncated = Int(value)
                if Double(truncated) == value {
                    position = writeInteger(truncated, into: output, at: position)
                } else {
                    for byte in value.description.utf8 {
                        output[position] = byte
                        position += 1
                    }
                }
            }
            output[position] = UInt8(ascii: "]")
            return position + 1
        }
        bytes.removeLast(bytes.count - end)
    }

    /// Writes the decimal digits of `value` at `position`; returns the position after them.
    @inline(__always)
    private static func writeInteger(_ value: Int, into output: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int {
        var position = position
        if value < 0 {
            output[position] = UInt8(ascii: "-")
            position += 1
        }
        var magnitude = value.magnitude
        if magnitude < 1000 {
            // The common case (simplified coordinates are 0–255), without a digit-count loop.
            if magnitude >= 100 {
                output[position] = UInt8(ascii: "0") + UInt8(magnitude / 100)
                position += 1
            }
            if magnitude >= 10 {
                output[position] = UInt8(ascii: "0") + UInt8(magnitude / 10 % 10)
                position += 1
            }
            output[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            return position + 1
        }
        // A magnitude is at most 2^63 < 10^19: 19 digits at most, and 10^19 fits in a UInt.
        var digitCount = 1
        var power: UInt = 10
        while digitCount < 19 && magnitude >= power {
            digitCount += 1
            power &*= 10
        }
        var cursor = position + digitCount
        repeat {
            cursor -= 1
            output[cursor] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return position + digitCount
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\uXXXX`
    /// (or their short forms), everything else as UTF-8.
    package static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole.
        let copiedWhole = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copiedWhole == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                HexDigits.append(byte, to: &bytes)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
