import SketchCore

/// Parses one Quick, Draw! NDJSON line (raw or simplified) straight from its bytes.
///
/// A hand-written reader for exactly this schema: an object with the keys `word`,
/// `countrycode`, `timestamp`, `recognized`, `key_id` and `drawing` in any order (all required;
/// unknown keys are skipped whatever their value; a repeated key keeps its last value), and the
/// optional `stroke3_deltas` SketchPrep writes for float64 stroke-3 records (kept beside the
/// record, ``stroke3Deltas``).
/// `drawing` is a non-empty array of strokes, each `[x, y]` or `[x, y, t]` with equally long,
/// non-empty number arrays. Strings are decoded with every JSON escape and must be valid UTF-8.
/// Numbers follow the JSON grammar and convert exactly (see `JSONNumberParser`). Coordinates and
/// timestamps must be finite and within `DrawingLimits` (`coordinate out of range`), and a
/// drawing may hold at most `DrawingLimits.maximumStrokes` strokes and
/// `DrawingLimits.maximumPoints` points, checked while reading so scratch memory stays bounded.
/// The word, key_id, country code and timestamp must pass ``DataName`` (no control characters;
/// a word that can be a file name).
/// Anything else is a `FormatError` whose reason names what was wrong and where.
///
/// The parser keeps scratch buffers between lines, so reuse one instance for a whole stream.
/// With `keepsTimestamps == false`, `t` arrays are still checked but not stored (strokes get
/// an empty `t`), which saves work when only coordinates are needed. Either way the record's
/// `kind` is decided from the line as written (`DrawingKind`: a `t` array or a coordinate that is
/// not an integer in 0…255 makes it raw).
public struct QuickDrawLineParser {
    /// Whether strokes keep their `t` arrays.
    public var keepsTimestamps: Bool
    /// The `stroke3_deltas` of the last line parsed (nil when it had none or did not parse): a
    /// float64 stroke-3 record's exact deltas (`Stroke3.exactDeltas`), which stay with the format,
    /// not the record.
    package private(set) var stroke3Deltas: [Double]?
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var ts: [Double] = []
    /// Where each stroke of the drawing being parsed ends in `xs`/`ys` (flat strokes).
    private var strokeEnds: [Int] = []
    private var stringScratch: [UInt8] = []

    /// Creates a parser. Its scratch buffers start empty and grow to the longest stroke read
    /// (`JSONCursor.parseNumberArray`), so a parser made for a few lines (a format's detection, a
    /// small file's batch) costs no more than those lines.
    public init(keepsTimestamps: Bool = true) {
        self.keepsTimestamps = keepsTimestamps
    }

    /// Parses `line` (without its newline).
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(FormatError) -> SketchRecord {
        var cursor = JSONCursor(line)
        var unused = FlatStrokes()
        return try parseRecord(&cursor, flat: false, strokes: &unused)
    }

    /// Parses `line` (without its newline) with its strokes' points (and their times, when kept)
    /// put into `strokes` (replacing its contents) instead of the record, whose `drawing` is empty.
    /// Same checks and errors as `parse(_:)`; reusing `strokes` saves the arrays of every stroke.
    public mutating func parse(
        _ line: UnsafeBufferPointer<UInt8>, strokesInto strokes: inout FlatStrokes
    ) throws(FormatError) -> SketchRecord {
        var cursor = JSONCursor(line)
        return try parseRecord(&cursor, flat: true, strokes: &strokes)
    }

    /// Parses `bytes`, the value of a record's `drawing` key that starts at byte `columnOffset` of
    /// its line (errors name columns of that line), with the checks and errors of ``parse(_:)``;
    /// with `flat`, the points go into `strokes` (replacing its contents) and the drawing is empty.
    /// Returns the drawing, its kind (`DrawingKind`, from the values as written), the offset in
    /// `bytes` just past the drawing's closing `]` (what follows is not looked at) and whether a
    /// blank it stepped over was a carriage return or a newline.
    package mutating func parseDrawing(
        _ bytes: UnsafeBufferPointer<UInt8>, columnOffset: Int, flat: Bool, strokes: inout FlatStrokes
    ) throws(FormatError) -> (drawing: Drawing, kind: DrawingKind, end: Int, skippedLineBreak: Bool) {
        var cursor = JSONCursor(bytes, columnOffset: columnOffset)
        cursor.skipWhitespace()
        let (drawing, kind) = try parseDrawing(&cursor, flat: flat, strokes: &strokes)
        return (drawing, kind, cursor.index, cursor.skippedLineBreak)
    }

    /// Parses `line` (without its newline).
    public mutating func parse(_ line: [UInt8]) throws(FormatError) -> SketchRecord {
        let result: Result<SketchRecord, FormatError> = line.withUnsafeBufferPointer { bytes in
            do throws(FormatError) { return .success(try parse(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a record; with `flat`, the strokes go into `strokes` (replacing its contents) and
    /// `drawing` is empty, else `strokes` is left as it is.
    private mutating func parseRecord(
        _ cursor: inout JSONCursor, flat: Bool, strokes: inout FlatStrokes
    ) throws(FormatError) -> SketchRecord {
        var word: String?
        var countryCode: String?
        var timestamp: String?
        var recognized: Bool?
        var keyID: String?
        var drawing: Drawing?
        var kind = DrawingKind.simplified
        var stroke3Deltas: [Double]?
        self.stroke3Deltas = nil

        cursor.skipWhitespace()
        try cursor.expect(UInt8(ascii: "{"), "expected '{' at the start of the line")
        cursor.skipWhitespace()
        if cursor.peek() == UInt8(ascii: "}") {
            cursor.advance()
        } else {
            while true {
                cursor.skipWhitespace()
                let key = try cursor.parseKey()
                cursor.skipWhitespace()
                try cursor.expect(UInt8(ascii: ":"), "expected ':' after a key")
                cursor.skipWhitespace()
                switch key {
                case .word: word = try parseString(&cursor, key: "word")
                case .countryCode: countryCode = try parseString(&cursor, key: "countrycode")
                case .timestamp: timestamp = try parseString(&cursor, key: "timestamp")
                case .keyID: keyID = try parseString(&cursor, key: "key_id")
                case .recognized: recognized = try cursor.parseBool(key: "recognized")
                case .drawing: (drawing, kind) = try parseDrawing(&cursor, flat: flat, strokes: &strokes)
                case .stroke3Deltas:
                    var deltas: [Double] = []
                    let count = try cursor.parseNumberArray(
                        into: &deltas, what: "stroke3_deltas", bound: 2 * DrawingLimits.maximumCoordinateMagnitude,
                        limit: 2 * DrawingLimits.maximumPoints)
                    stroke3Deltas = Array(deltas[..<count])
                case .other: try cursor.skipValue(depth: 0)
                }
                cursor.skipWhitespace()
                if cursor.peek() == UInt8(ascii: ",") {
                    cursor.advance()
                    continue
                }
                try cursor.expect(UInt8(ascii: "}"), "expected ',' or '}' after a value")
                break
            }
        }
        cursor.skipWhitespace()
        if !cursor.isAtEnd { throw cursor.error("unexpected bytes after the closing '}'") }

        guard let word else { throw FormatError(.record, "missing key \"word\"") }
        guard let countryCode else { throw FormatError(.record, "missing key \"countrycode\"") }
        guard let timestamp else { throw FormatError(.record, "missing key \"timestamp\"") }
        guard let recognized else { throw FormatError(.record, "missing key \"recognized\"") }
        guard let keyID else { throw FormatError(.record, "missing key \"key_id\"") }
        guard let drawing else { throw FormatError(.record, "missing key \"drawing\"") }
        let record = SketchRecord(
            word: word, countryCode: countryCode, timestamp: timestamp,
            recognized: recognized, keyID: keyID, drawing: drawing, kind: kind)
        if let problem = DataName.recordProblem(record) { throw FormatError(.record, problem) }
        self.stroke3Deltas = stroke3Deltas
        return record
    }

    private mutating func parseString(_ cursor: inout JSONCursor, key: String) throws(FormatError) -> String {
        guard cursor.peek() == UInt8(ascii: "\"") else {
            throw cursor.error("key \"\(key)\": expected a string")
        }
        return try cursor.parseString(scratch: &stringScratch)
    }

    /// Parses the strokes and decides the drawing's kind (`DrawingKind`) from them as they are in
    /// the line, whether or not the `t` arrays are kept. With `flat`, the strokes' points (and
    /// kept times) are parsed one after another into the scratch buffers and copied into
    /// `flatStrokes` once, and the drawing is empty; without, `flatStrokes` is left as it is.
    private mutating func parseDrawing(
        _ cursor: inout JSONCursor, flat: Bool, strokes flatStrokes: inout FlatStrokes
    ) throws(FormatError) -> (Drawing, DrawingKind) {
        try cursor.expect(UInt8(ascii: "["), "key \"drawing\": expected an array of strokes")
        cursor.skipWhitespace()
        if cursor.peek() == UInt8(ascii: "]") {
            throw cursor.error("empty drawing: no strokes")
        }
        if flat {
            flatStrokes.removeAll()
            strokeEnds.removeAll(keepingCapacity: true)
            var none: [Stroke]?
            let (kind, timedStrokes) = try Self.parseStrokes(
                &cursor, x: &xs, y: &ys, times: &ts, keepsTimestamps: keepsTimestamps, strokeEnds: &strokeEnds, strokes: &none)
            let points = strokeEnds.last ?? 0
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    strokeEnds.withUnsafeBufferPointer { ends in
                        let x = UnsafeBufferPointer(rebasing: x[..<points])
                        let y = UnsafeBufferPointer(rebasing: y[..<points])
                        // The times' buffer only for a drawing with times: taken for every drawing,
                        // it cost a read + decode of simplified drawings 0.5 % more instructions.
                        guard timedStrokes > 0 else { return flatStrokes.appendStrokes(x: x, y: y, strokeEnds: ends) }
                        ts.withUnsafeBufferPointer { t in
                            flatStrokes.appendStrokes(
                                x: x, y: y, t: UnsafeBufferPointer(rebasing: t[..<points]), timedStrokes: timedStrokes, strokeEnds: ends)
                        }
                    }
                }
            }
            return (Drawing(strokes: []), kind)
        }
        var strokes: [Stroke]? = []
        let kind = try Self.parseStrokes(
            &cursor, x: &xs, y: &ys, times: &ts, keepsTimestamps: keepsTimestamps, strokeEnds: &strokeEnds, strokes: &strokes
        ).kind
        return (Drawing(strokes: strokes!), kind)
    }

    /// Parses the strokes of a drawing, its opening `[` read, through its closing `]`. With
    /// `strokes` non-nil, each stroke's points are parsed into the first slots of `x`, `y` (and
    /// `times`) and appended to it as a `Stroke`; with nil, they are parsed into `x` and `y` (and,
    /// once a stroke has kept times, `times`, 0 for a stroke without) one stroke after another from
    /// slot 0, and each stroke's end is appended to `strokeEnds`. Returns the drawing's kind and how
    /// many strokes kept times.
    private static func parseStrokes(
        _ cursor: inout JSONCursor, x: inout [Double], y: inout [Double], times: inout [Double], keepsTimestamps: Bool,
        strokeEnds: inout [Int], strokes: inout [Stroke]?
    ) throws(FormatError) -> (kind: DrawingKind, timedStrokes: Int) {
        var strokeCount = 0
        var pointCount = 0
        var hasTimestamps = false
        var timedStrokes = 0
        var allCoordinatesSimplified = true
        let flat = strokes == nil
        while true {
            cursor.skipWhitespace()
            strokeCount += 1
            if strokeCount > DrawingLimits.maximumStrokes {
                throw cursor.error("\(DrawingLimits.tooManyStrokes): more than \(DrawingLimits.maximumStrokes) in the drawing")
            }
            let start = flat ? pointCount : 0
            if flat && keepsTimestamps && times.count < start { times.append(contentsOf: repeatElement(0, count: start - times.count)) }
            let (count, hasTimes) = try parseStroke(
                &cursor, number: strokeCount, pointLimit: DrawingLimits.maximumPoints - pointCount,
                x: &x, y: &y, at: start, times: &times, keepsTimestamps: keepsTimestamps)
            pointCount += count
            hasTimestamps = hasTimestamps || hasTimes
            if flat && keepsTimestamps {
                // Flat times start at the first stroke that has them; the strokes before it and
                // the ones without get 0s.
                if hasTimes {
                    if timedStrokes == 0 { Self.zero(&times, 0..<start) }
                    timedStrokes += 1
                } else if timedStrokes > 0 {
                    Self.zero(&times, start..<(start + count))
                }
            }
            // Only while the drawing may still be simplified: no stroke with times and no coordinate
            // of a raw drawing yet (a raw drawing's first stroke ends it; checking the coordinates of
            // timed strokes too was 1 % of a read + decode of the shared raw drawings). Made inside
            // the number loop instead, the check cost a read + decode of raw drawings 2.8 % more
            // instructions and saved one of simplified drawings 3.5 %.
            if allCoordinatesSimplified && !hasTimestamps {
                allCoordinatesSimplified =
                    x.withUnsafeBufferPointer {
                        DrawingKind.areSimplifiedCoordinates(UnsafeBufferPointer(rebasing: $0[start..<(start + count)]))
                    }
                    && y.withUnsafeBufferPointer {
                        DrawingKind.areSimplifiedCoordinates(UnsafeBufferPointer(rebasing: $0[start..<(start + count)]))
                    }
            }
            if !flat {
                strokes!.append(
                    Stroke(x: Array(x[..<count]), y: Array(y[..<count]), t: hasTimes && keepsTimestamps ? Array(times[..<count]) : []))
            } else {
                strokeEnds.append(pointCount)
            }
            cursor.skipWhitespace()
            if cursor.peek() == UInt8(ascii: ",") {
                cursor.advance()
                continue
            }
            try cursor.expect(UInt8(ascii: "]"), "key \"drawing\": expected ',' or ']' after a stroke")
            return (DrawingKind(hasTimestamps: hasTimestamps, allCoordinatesSimplified: allCoordinatesSimplified), timedStrokes)
        }
    }

    /// Sets `range` of `values` to 0, growing `values` to its end.
    private static func zero(_ values: inout [Double], _ range: Range<Int>) {
        if values.count < range.upperBound { values.append(contentsOf: repeatElement(0, count: range.upperBound - values.count)) }
        values.withUnsafeMutableBufferPointer { UnsafeMutableBufferPointer(rebasing: $0[range]).update(repeating: 0) }
    }

    /// Reads one stroke's arrays into `x`/`y` from slot `start` on (and into `times`, from slot
    /// `start` as well, when timestamps are kept); returns its point count and whether it had a
    /// `t` array.
    /// At most `pointLimit` points are read (the drawing's remaining allowance).
    private static func parseStroke(
        _ cursor: inout JSONCursor, number: Int, pointLimit: Int,
        x: inout [Double], y: inout [Double], at start: Int, times: inout [Double], keepsTimestamps: Bool
    ) throws(FormatError) -> (count: Int, hasTimes: Bool) {
        try cursor.expect(UInt8(ascii: "["), "stroke \(number): expected an array [x, y] or [x, y, t]")
        cursor.skipWhitespace()
        let coordinateBound = DrawingLimits.maximumCoordinateMagnitude
        let timeBound = DrawingLimits.maximumTimestampMagnitude
        let xCount = try cursor.parseNumberArray(
            into: &x, at: start, what: "stroke \(number) x", bound: coordinateBound, limit: pointLimit)
        cursor.skipWhitespace()
        try cursor.expect(UInt8(ascii: ","), "stroke \(number): expected the y array after x")
        cursor.skipWhitespace()
        let yCount = try cursor.parseNumberArray(
            into: &y, at: start, what: "stroke \(number) y", bound: coordinateBound, limit: pointLimit)
        cursor.skipWhitespace()
        var tCount: Int?
        if cursor.peek() == UInt8(ascii: ",") {
            cursor.advance()
            cursor.skipWhitespace()
            tCount =
                keepsTimestamps
                ? try cursor.parseNumberArray(into: &times, at: start, what: "stroke \(number) t", bound: timeBound, limit: pointLimit)
                : try cursor.countNumberArray(scratch: &times, what: "stroke \(number) t", bound: timeBound, limit: pointLimit)
            cursor.skipWhitespace()
        }
        if cursor.peek() == UInt8(ascii: ",") {
            throw cursor.error("stroke \(number): more than 3 arrays (expected [x, y] or [x, y, t])")
        }
        try cursor.expect(UInt8(ascii: "]"), "stroke \(number): expected ']' after its arrays")
        if xCount == 0 { throw FormatError(.record, "stroke \(number) has no points") }
        if xCount != yCount {
            throw FormatError(.record, "stroke \(number): x has \(xCount) values but y has \(yCount)")
        }
        if let tCount, tCount != xCount {
            throw FormatError(.record, "stroke \(number): x has \(xCount) values but t has \(tCount)")
        }
        return (xCount, tCount != nil)
    }
}
