import SketchCore

/// A batch of drawings handed over from C: every point's coordinates back to back (`x[i·stride]`,
/// `y[i·stride]`: separate arrays with stride 1, or one interleaved `(P, 2)` or `(P, 3)` array (x, y,
/// t) with stride 2 or 3 and `y = x + 1`), where each stroke starts (`strokeCount + 1` offsets into the points) and where each drawing starts
/// (`drawingCount + 1` offsets into the strokes). Nothing here is trusted: `init` checks that
/// the offsets start at 0, never decrease and end at the counts, and `drawing(_:)` applies the
/// CLI's per-drawing limits, so no value from the caller can trap or index out of bounds.
struct StrokeBatch {
    let x: UnsafePointer<Double>?
    let y: UnsafePointer<Double>?
    let stride: Int
    let strokeOffsets: UnsafeBufferPointer<Int64>
    let drawingOffsets: UnsafeBufferPointer<Int64>

    /// The drawing count.
    var count: Int { drawingOffsets.count - 1 }

    /// Wraps the caller's arrays, or returns the reason they do not form a batch.
    static func make(
        x: UnsafePointer<Double>?, y: UnsafePointer<Double>?, stride: Int64, pointCount: Int64,
        strokeOffsets: UnsafePointer<Int64>?, strokeCount: Int64,
        drawingOffsets: UnsafePointer<Int64>?, drawingCount: Int64
    ) -> Result<StrokeBatch, BatchLayoutError> {
        guard pointCount >= 0, strokeCount >= 0, drawingCount >= 0,
            pointCount < Int64(Int32.max), strokeCount < Int64(Int32.max), drawingCount < Int64(Int32.max)
        else {
            return .failure(BatchLayoutError("counts must be non-negative and below 2^31"))
        }
        guard (1...3).contains(stride) else { return .failure(BatchLayoutError("stride must be 1, 2 or 3")) }
        guard let strokeOffsets, let drawingOffsets, pointCount == 0 || (x != nil && y != nil) else {
            return .failure(BatchLayoutError("missing array"))
        }
        let batch = StrokeBatch(
            x: x, y: y, stride: Int(stride),
            strokeOffsets: UnsafeBufferPointer(start: strokeOffsets, count: Int(strokeCount) + 1),
            drawingOffsets: UnsafeBufferPointer(start: drawingOffsets, count: Int(drawingCount) + 1))
        if let problem = Self.offsetProblem(batch.strokeOffsets, total: pointCount, what: "stroke offsets", of: "points") {
            return .failure(problem)
        }
        if let problem = Self.offsetProblem(batch.drawingOffsets, total: strokeCount, what: "drawing offsets", of: "strokes") {
            return .failure(problem)
        }
        return .success(batch)
    }

    private static func offsetProblem(
        _ offsets: UnsafeBufferPointer<Int64>, total: Int64, what: String, of unit: String
    ) -> BatchLayoutError? {
        guard offsets.first == 0 else { return BatchLayoutError("\(what) must start at 0") }
        guard offsets.last == total else { return BatchLayoutError("\(what) must end at the number of \(unit) (\(total))") }
        for index in 1..<offsets.count where offsets[index] < offsets[index - 1] {
            return BatchLayoutError("\(what) must not decrease (index \(index))")
        }
        return nil
    }

    /// The strokes of drawing `index` as flat storage, checked as the NDJSON parser checks a
    /// record: at least one stroke, at most `DrawingLimits.maximumStrokes` strokes and
    /// `DrawingLimits.maximumPoints` points, no empty stroke, every coordinate finite and within
    /// `bound`.
    func drawing(_ index: Int, bound: Double, into strokes: inout FlatStrokes) throws(DrawingLimitError) {
        strokes.removeAll()
        let first = Int(drawingOffsets[index])
        let end = Int(drawingOffsets[index + 1])
        guard end > first else { throw DrawingLimitError(.emptyDrawing, "empty drawing: no strokes") }
        guard end - first <= DrawingLimits.maximumStrokes else {
            throw DrawingLimitError(.tooManyStrokes, "more than \(DrawingLimits.maximumStrokes) in the drawing")
        }
        let points = Int(strokeOffsets[end]) - Int(strokeOffsets[first])
        guard points <= DrawingLimits.maximumPoints else {
            throw DrawingLimitError(.tooManyPoints, "more than \(DrawingLimits.maximumPoints) in the drawing")
        }
        for stroke in first..<end {
            let start = Int(strokeOffsets[stroke])
            let stop = Int(strokeOffsets[stroke + 1])
            guard stop > start else { throw DrawingLimitError(.emptyStroke, "stroke \(stroke - first + 1) has no points") }
            let x = x.unsafelyUnwrapped
            let y = y.unsafelyUnwrapped
            let stride = stride  // a point: both present (`make`)
            try check(x, start..<stop, stroke: stroke - first + 1, bound: bound)
            try check(y, start..<stop, stroke: stroke - first + 1, bound: bound)
            strokes.appendStroke(count: stop - start) { outX, outY in
                for (slot, point) in (start..<stop).enumerated() {
                    outX[slot] = x[point * stride]
                    outY[slot] = y[point * stride]
                }
            }
        }
    }

    /// Throws when a coordinate of `points` (stroke `number` of its drawing) is not finite or beyond ±`bound`.
    private func check(
        _ coordinate: UnsafePointer<Double>, _ points: Range<Int>, stroke number: Int, bound: Double
    ) throws(DrawingLimitError) {
        for point in points where !(coordinate[point * stride].magnitude <= bound) {
            throw DrawingLimitError(
                .coordinateOutOfRange, "stroke \(number) has \(coordinate[point * stride]), beyond ±\(bound)")
        }
    }
}

/// Why the arrays of a call do not form a batch (a caller's mistake, not a drawing's).
struct BatchLayoutError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
