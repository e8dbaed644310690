/// Step 3 of the simplification: places points at a fixed spacing along a stroke's path.
///
/// Emits the first point, then one point per `step` of arc length strictly before the path's
/// end, then the original last point. A one-point stroke becomes two identical points; a stroke
/// of zero length becomes its first and last point. Segment lengths are `sqrt(dx² + dy²)` and
/// each sample is `a·(1 − u) + b·u`, evaluated in that order, so results agree bit for bit with
/// the numpy reading of Google's rule (docs/parity.md). The number of points follows from the
/// arc length before any is placed, and is capped (see `DrawingLimits`).
public struct ArcLengthResampler: Sendable {
    /// Spacing between emitted points.
    public var step: Double
    private var cumulative: [Double] = []
    private var lengths: [Double] = []

    /// Creates a resampler.
    public init(step: Double) {
        precondition(step > 0, "resampling step must be positive")
        self.step = step
    }

    /// Replaces `outX`/`outY` with the resampled points of the stroke `x`/`y` (non-empty, equal
    /// counts), reusing the storage of the previous stroke's output, and returns how many it placed.
    ///
    /// At most `limit` points are placed: the count follows from the stroke's arc length and the
    /// step, and is checked before any output storage grows; a stroke that needs more (or whose
    /// length is not finite) throws `DrawingLimitError` (`too many resampled points`) and leaves
    /// the outputs unspecified.
    @discardableResult
    public mutating func resample(
        x: [Double], y: [Double], outX: inout [Double], outY: inout [Double],
        limit: Int = DrawingLimits.maximumResampledPointsPerStroke
    ) throws(DrawingLimitError) -> Int {
        let count = x.count
        precondition(count > 0 && y.count == count, "resample needs a non-empty stroke")
        guard limit >= 2 else { throw Self.overLimit(needed: "2", limit: limit) }
        if count == 1 {
            outX.replaceContents(count: 2) {
                $0[0] = x[0]
                $0[1] = x[0]
            }
            outY.replaceContents(count: 2) {
                $0[0] = y[0]
                $0[1] = y[0]
            }
            return 2
        }
        try lerp(x: x, y: y, outX: &outX, outY: &outY, limit: limit)
        return outX.count
    }

    /// The error for a stroke that needs `needed` points where `limit` remain.
    private static func overLimit(needed: String, limit: Int) -> DrawingLimitError {
        DrawingLimitError(
            .tooManyResampledPoints,
            "a stroke needs \(needed) where \(max(limit, 0)) remain"
                + " (caps: \(DrawingLimits.maximumResampledPointsPerStroke) per stroke,"
                + " \(DrawingLimits.maximumResampledPointsPerDrawing) per drawing)")
    }

    /// The sample count for `total`, or an error when the length is not finite or the samples
    /// plus the last point would exceed `limit`.
    private func boundedSampleCount(below total: Double, limit: Int) throws(DrawingLimitError) -> Int {
        guard total.isFinite else { throw Self.overLimit(needed: "infinitely many", limit: limit) }
        guard total / step < Double(limit) else {
            throw Self.overLimit(needed: "\(Int(min(total / step, 1e15)) + 1)", limit: limit)
        }
        let sampleCount = Self.sampleCount(below: total, step: step)
        guard sampleCount < limit else { throw Self.overLimit(needed: "\(sampleCount + 1)", limit: limit) }
        return sampleCount
    }

    /// Samples at `t = j·step < L`; in segment i, `u = (t − c[i]) / seg[i]` and the point is
    /// `x[i]·(1 − u) + x[i+1]·u` (the reference's numpy expression, evaluated in that order).
    private mutating func lerp(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double], limit: Int) throws(DrawingLimitError) {
        let count = x.count
        let total = measureSegments(x: x, y: y)
        if total == 0 {
            outX.replaceContents(count: 2) {
                $0[0] = x[0]
                $0[1] = x[count - 1]
            }
            outY.replaceContents(count: 2) {
                $0[0] = y[0]
                $0[1] = y[count - 1]
            }
            return
        }
        let sampleCount = try boundedSampleCount(below: total, limit: limit)
        let step = self.step
        cumulative.withUnsafeBufferPointer { c in
            lengths.withUnsafeBufferPointer { lengths in
                x.withUnsafeBufferPointer { x in
                    y.withUnsafeBufferPointer { y in
                        outX.replaceContents(count: sampleCount + 1) { outX in
                            outY.replaceContents(count: sampleCount + 1) { outY in
                                var segment = 0
                                for sampleIndex in 0..<sampleCount {
                                    let t = Double(sampleIndex) * step
                                    // The last segment with c[i] <= t (numpy's searchsorted(side="right") − 1).
                                    while c[segment + 1] <= t { segment += 1 }
                                    let fraction = (t - c[segment]) / lengths[segment]
                                    let complement = 1.0 - fraction
                                    outX[sampleIndex] = x[segment] * complement + x[segment + 1] * fraction
                                    outY[sampleIndex] = y[segment] * complement + y[segment + 1] * fraction
                                }
                                outX[sampleCount] = x[count - 1]
                                outY[sampleCount] = y[count - 1]
                            }
                        }
                    }
                }
            }
        }
    }

    /// Fills `lengths` with the segment lengths `sqrt(dx² + dy²)` and `cumulative` with their
    /// running sum (starting at 0); returns the total length.
    private mutating func measureSegments(x: [Double], y: [Double]) -> Double {
        let segmentCount = x.count - 1
        var total = 0.0
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                lengths.replaceContents(count: segmentCount) { lengths in
                    cumulative.replaceContents(count: segmentCount + 1) { cumulative in
                        cumulative[0] = 0
                        for index in 0..<segmentCount {
                            let dx = x[index + 1] - x[index]
                            let dy = y[index + 1] - y[index]
                            let length = (dx * dx + dy * dy).squareRoot()
                            lengths[index] = length
                            total += length
                            cumulative[index + 1] = total
                        }
                    }
                }
            }
        }
        return total
    }

    /// The number of samples `j·step` (j = 0, 1, …) strictly below `total` (> 0): the smallest
    /// `n` with `Double(n)·step >= total`, found from the quotient and corrected with the same
    /// products the sampling loop evaluates (they grow with `n`, so the correction is exact).
    static func sampleCount(below total: Double, step: Double) -> Int {
        var count = Int(min(total / step, 1e15))
        while count > 0 && Double(count - 1) * step >= total { count -= 1 }
        while Double(count) * step < total { count += 1 }
        return count
    }
}
