/// The strokes of one drawing in flat storage: every stroke's coordinates back to back in `x`
/// and `y` (and its times in `t` when a stroke has them), and where each stroke ends.
///
/// `Simplifier.simplify(_:into:)` fills one of these instead of allocating arrays per stroke,
/// so a stream of drawings can be converted and written with storage reused from one drawing
/// to the next. `drawing` gives the same strokes as a `Drawing`.
public struct FlatStrokes: Equatable, Sendable {
    /// Horizontal coordinates of all strokes, stroke after stroke.
    public private(set) var x: [Double] = []
    /// Vertical coordinates of all strokes (same count as `x`).
    public private(set) var y: [Double] = []
    /// For each stroke, the index in `x`/`y` just past its last point.
    public private(set) var strokeEnds: [Int] = []
    /// The times of all strokes' points (same count as `x`, 0 for the points of a stroke without
    /// times) once a stroke with times is appended; empty while none is.
    public private(set) var t: [Double] = []
    /// How many strokes have times (their `t` values in ``t``).
    public private(set) var timedStrokeCount = 0

    /// Creates empty storage.
    public init() {}

    /// Number of strokes.
    public var strokeCount: Int { strokeEnds.count }

    /// The indices in `x`/`y` of stroke `index`'s points.
    public func pointRange(ofStroke index: Int) -> Range<Int> {
        (index == 0 ? 0 : strokeEnds[index - 1])..<strokeEnds[index]
    }

    /// Whether every stroke has times (false without strokes).
    public var isTimed: Bool { strokeCount > 0 && timedStrokeCount == strokeCount }

    /// The strokes as a `Drawing`, with times when every stroke has them.
    public var drawing: Drawing {
        let timed = isTimed
        return Drawing(
            strokes: (0..<strokeCount).map { index in
                let points = pointRange(ofStroke: index)
                return Stroke(x: Array(x[points]), y: Array(y[points]), t: timed ? Array(t[points]) : [])
            })
    }

    /// Removes every stroke, keeping the storage.
    public mutating func removeAll() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        strokeEnds.removeAll(keepingCapacity: true)
        if !t.isEmpty { t.removeAll(keepingCapacity: true) }
        timedStrokeCount = 0
    }

    /// Replaces the contents with the points of `drawing`'s strokes, and with their times when
    /// `keepingTimes` (a stroke has times when it has one per point).
    public mutating func replaceContents(with drawing: Drawing, keepingTimes: Bool = false) {
        removeAll()
        for stroke in drawing.strokes {
            stroke.x.withUnsafeBufferPointer { x in
                stroke.y.withUnsafeBufferPointer { y in
                    guard keepingTimes && !x.isEmpty && stroke.t.count == x.count else { return appendStroke(x: x, y: y) }
                    stroke.t.withUnsafeBufferPointer { appendStroke(x: x, y: y, t: $0) }
                }
            }
        }
    }

    /// Appends the strokes whose points are `x`/`y` (equal counts), back to back: stroke `i` ends
    /// just before point `strokeEnds[i]` of them (increasing, the last one `x.count`). One copy for
    /// a whole drawing, where ``appendStroke(x:y:)`` costs one per stroke (`QuickDrawLineParser`
    /// parses a drawing's strokes into one buffer). With `t` (same count), `timedStrokes` of them
    /// have times there and the others 0s.
    package mutating func appendStrokes(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, t: UnsafeBufferPointer<Double>? = nil,
        timedStrokes: Int = 0, strokeEnds ends: UnsafeBufferPointer<Int>
    ) {
        precondition(x.count == y.count && (ends.last ?? 0) == x.count, "FlatStrokes: strokes do not end at their points' end")
        precondition(t.map { $0.count == x.count && timedStrokes > 0 } ?? (timedStrokes == 0), "FlatStrokes: times do not match points")
        let base = self.x.count
        self.x.append(contentsOf: x)
        self.y.append(contentsOf: y)
        appendTimes(t, ofStrokes: timedStrokes)
        strokeEnds.reserveCapacity(strokeEnds.count + ends.count)
        for end in ends { strokeEnds.append(base + end) }
    }

    /// Gives the points appended without times 0s in ``t`` once a stroke has times.
    private mutating func padTimes() {
        if !t.isEmpty { Zeros.append(x.count - t.count, to: &t) }
    }

    /// Puts the times of the points just appended in ``t``: `times`, the times of `timedStrokes` of
    /// their strokes (0s before them for the points appended earlier without times), or 0s when nil.
    /// Inlined: as a call, the nil case cost a read + decode of simplified drawings 0.1 % more.
    @inline(__always)
    private mutating func appendTimes(_ times: UnsafeBufferPointer<Double>?, ofStrokes timedStrokes: Int) {
        guard let times else { return padTimes() }
        Zeros.append(x.count - times.count - t.count, to: &t)
        t.append(contentsOf: times)
        timedStrokeCount += timedStrokes
    }

    /// Appends a stroke with the points `x`/`y` (equal counts), and the times `t` (same count) if given.
    public mutating func appendStroke(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, t: UnsafeBufferPointer<Double>? = nil)
    {
        precondition(x.count == y.count && (t?.count ?? x.count) == x.count, "FlatStrokes x/y/t length mismatch")
        self.x.append(contentsOf: x)
        self.y.append(contentsOf: y)
        appendTimes(t, ofStrokes: 1)
        strokeEnds.append(self.x.count)
    }

    /// Appends a stroke of `count` points whose coordinates `fill` writes into the two buffers
    /// it is given (x, then y), each exactly `count` slots long.
    @inline(__always)
    package mutating func appendStroke(count: Int, _ fill: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) -> Void)
    {
        appendPoints(count: count, fill)
        endStroke(points: count)
    }

    /// Appends `count` points that no stroke holds yet, whose coordinates `fill` writes into the
    /// two buffers it is given (x, then y), each exactly `count` slots long; ``endStroke(points:)``
    /// then makes strokes of them, until every point is in one. Growing the storage costs more
    /// than filling a short stroke, so a decoder that knows a drawing's points up front (`.bin`,
    /// stroke-3) appends them all in one call.
    package mutating func appendPoints(count: Int, _ fill: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) -> Void)
    {
        let start = x.count
        Zeros.append(count, to: &x)
        Zeros.append(count, to: &y)
        padTimes()
        x.withUnsafeMutableBufferPointer { x in
            y.withUnsafeMutableBufferPointer { y in
                fill(UnsafeMutableBufferPointer(rebasing: x[start...]), UnsafeMutableBufferPointer(rebasing: y[start...]))
            }
        }
    }

    /// Makes a stroke of the next `count` points appended by ``appendPoints(count:_:)``.
    package mutating func endStroke(points count: Int) {
        let end = (strokeEnds.last ?? 0) + count
        precondition(count >= 0 && end <= x.count, "FlatStrokes: a stroke ends past the points appended")
        strokeEnds.append(end)
    }

    /// Makes strokes of all the points appended by ``appendPoints(count:_:)`` that no stroke holds
    /// yet: stroke `i` ends just before point `ends[i]` of them (increasing, the last one their
    /// count). One check and one growth for a drawing's strokes, where ``endStroke(points:)`` costs
    /// both per stroke (`.bin`: 3.4 % of a read + decode).
    package mutating func endStrokes(at ends: UnsafeBufferPointer<Int>) {
        let base = strokeEnds.last ?? 0
        precondition(base + (ends.last ?? 0) == x.count, "FlatStrokes: strokes do not end at their points' end")
        strokeEnds.reserveCapacity(strokeEnds.count + ends.count)
        for end in ends { strokeEnds.append(base + end) }
    }
}

/// `count` zeros, for `Array.append(contentsOf:)`: they are written by one fill of the array's new
/// slots (`_copyContents(initializing:)`, the requirement the append calls), where
/// `repeatElement`'s are written one at a time through its iterator. In a read + decode of `.bin`,
/// whose points are appended as zeros and then written, appending took 22.8 M instructions of 514 M
/// with `repeatElement` and takes 8.2 M with these.
private struct Zeros: Sequence {
    let count: Int

    /// Appends `count` zeros to `values` (none: no call, which would cost the append's set-up).
    @inline(__always)
    static func append(_ count: Int, to values: inout [Double]) {
        if count != 0 { values.append(contentsOf: Zeros(count: count)) }
    }

    var underestimatedCount: Int { count }

    struct Iterator: IteratorProtocol {
        var remaining: Int

        mutating func next() -> Double? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return 0
        }
    }

    func makeIterator() -> Iterator { Iterator(remaining: count) }

    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Double>) -> (Iterator, Int) {
        let written = Swift.min(buffer.count, count)
        buffer.baseAddress?.initialize(repeating: 0, count: written)
        return (Iterator(remaining: count - written), written)
    }
}
