/// The strokes of one drawing in flat storage: every stroke's coordinates back to back in `x`
/// and `y`, and where each stroke ends.
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

    /// Creates empty storage.
    public init() {}

    /// Number of strokes.
    public var strokeCount: Int { strokeEnds.count }

    /// The indices in `x`/`y` of stroke `index`'s points.
    public func pointRange(ofStroke index: Int) -> Range<Int> {
        (index == 0 ? 0 : strokeEnds[index - 1])..<strokeEnds[index]
    }

    /// The strokes as a `Drawing` (without timestamps).
    public var drawing: Drawing {
        Drawing(
            strokes: (0..<strokeCount).map { index in
                let points = pointRange(ofStroke: index)
                return Stroke(x: Array(x[points]), y: Array(y[points]))
            })
    }

    /// Removes every stroke, keeping the storage.
    public mutating func removeAll() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        strokeEnds.removeAll(keepingCapacity: true)
    }

    /// Replaces the contents with the points of `drawing`'s strokes (timestamps are not kept).
    public mutating func replaceContents(with drawing: Drawing) {
        removeAll()
        for stroke in drawing.strokes {
            stroke.x.withUnsafeBufferPointer { x in
                stroke.y.withUnsafeBufferPointer { y in appendStroke(x: x, y: y) }
            }
        }
    }

    /// Appends the strokes whose points are `x`/`y` (equal counts), back to back: stroke `i` ends
    /// just before point `strokeEnds[i]` of them (increasing, the last one `x.count`). One copy for
    /// a whole drawing, where ``appendStroke(x:y:)`` costs one per stroke (`QuickDrawLineParser`
    /// parses a drawing's strokes into one buffer).
    package mutating func appendStrokes(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, strokeEnds ends: UnsafeBufferPointer<Int>
    ) {
        precondition(x.count == y.count && (ends.last ?? 0) == x.count, "FlatStrokes: strokes do not end at their points' end")
        let base = self.x.count
        self.x.append(contentsOf: x)
        self.y.append(contentsOf: y)
        strokeEnds.reserveCapacity(strokeEnds.count + ends.count)
        for end in ends { strokeEnds.append(base + end) }
    }

    /// Appends a stroke with the points `x`/`y` (equal counts).
    public mutating func appendStroke(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>) {
        precondition(x.count == y.count, "FlatStrokes x/y length mismatch")
        self.x.append(contentsOf: x)
        self.y.append(contentsOf: y)
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
        x.append(contentsOf: repeatElement(0, count: count))
        y.append(contentsOf: repeatElement(0, count: count))
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
}
