#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Step 3 of the simplification: places points at a fixed spacing along a stroke's path.
///
/// Every method emits the first point, then one point per `step` of arc length strictly before
/// the path's end, then the original last point. A one-point stroke becomes two identical
/// points; a stroke of zero length becomes its first and last point. Each method evaluates its
/// formulas in the order of the Python reading it reproduces (docs/parity.md): `.lerp` with
/// `sqrt(dx² + dy²)` lengths, `.interpolated` with the C library's `hypot` (numpy's), `.carried`
/// with Python's `math.hypot`, so results agree with them bit for bit. The number of points is
/// known from the arc length before any is placed, and capped (see `DrawingLimits`).
public struct ArcLengthResampler: Sendable {
    /// Placement method (`.none` copies the input).
    public var method: SimplificationOptions.Resampling
    /// Spacing between emitted points.
    public var step: Double
    private var cumulative: [Double] = []
    private var lengths: [Double] = []

    /// Creates a resampler.
    public init(method: SimplificationOptions.Resampling, step: Double) {
        precondition(step > 0, "resampling step must be positive")
        self.method = method
        self.step = step
    }

    /// Replaces `outX`/`outY` with the resampled points of the stroke `x`/`y` (non-empty, equal
    /// counts) and returns how many it placed.
    ///
    /// At most `limit` points are placed: the count follows from the stroke's arc length and the
    /// step, and is checked before any output storage grows; a stroke that needs more throws
    /// `DrawingLimitError` (`too many resampled points`) and leaves the outputs unspecified.
    @discardableResult
    public mutating func resample(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double],
                                  limit: Int = DrawingLimits.maximumResampledPointsPerStroke) throws(DrawingLimitError) -> Int {
        let count = x.count
        precondition(count > 0 && y.count == count, "resample needs a non-empty stroke")
        guard limit >= 2 else { throw Self.overLimit(needed: 2, limit: limit) }
        if count == 1 {
            outX.replaceContents(count: 2) { $0[0] = x[0]; $0[1] = x[0] }
            outY.replaceContents(count: 2) { $0[0] = y[0]; $0[1] = y[0] }
            return 2
        }
        // `.lerp` writes in place, reusing the storage of the previous stroke's output; the
        // other methods append.
        switch method {
        case .lerp:
            try lerp(x: x, y: y, outX: &outX, outY: &outY, limit: limit)
        case .none:
            guard count <= limit else { throw Self.overLimit(needed: count, limit: limit) }
            outX.replaceContents(count: count) { _ = $0.update(fromContentsOf: x) }
            outY.replaceContents(count: count) { _ = $0.update(fromContentsOf: y) }
        case .interpolated:
            outX.removeAll(keepingCapacity: true)
            outY.removeAll(keepingCapacity: true)
            try interpolate(x: x, y: y, outX: &outX, outY: &outY, limit: limit)
        case .carried:
            outX.removeAll(keepingCapacity: true)
            outY.removeAll(keepingCapacity: true)
            try carry(x: x, y: y, outX: &outX, outY: &outY, limit: limit)
        }
        return outX.count
    }

    /// The error for a stroke that needs `needed` points where `limit` remain.
    private static func overLimit(needed: Int, limit: Int) -> DrawingLimitError {
        DrawingLimitError("\(DrawingLimits.tooManyResampledPoints): a stroke needs \(needed) where \(max(limit, 0)) remain"
            + " (caps: \(DrawingLimits.maximumResampledPointsPerStroke) per stroke,"
            + " \(DrawingLimits.maximumResampledPointsPerDrawing) per drawing)")
    }

    /// Throws when `sampleCount` samples plus the last point exceed `limit` (an over-long or
    /// non-finite arc length included).
    private static func check(sampleCount: Int, limit: Int) throws(DrawingLimitError) {
        guard sampleCount < limit else { throw overLimit(needed: sampleCount + 1, limit: limit) }
    }

    /// The sample count for `total`, or an error when the length is not finite or needs more than `limit`.
    private func boundedSampleCount(below total: Double, limit: Int) throws(DrawingLimitError) -> Int {
        guard total.isFinite, total / step < Double(limit) else {
            throw Self.overLimit(needed: total.isFinite ? Int(min(total / step, 1e15)) + 1 : Int.max, limit: limit)
        }
        let sampleCount = Self.sampleCount(below: total, step: step)
        try Self.check(sampleCount: sampleCount, limit: limit)
        return sampleCount
    }

    /// Samples at `t = j·step < L`; in segment i, `u = (t − c[i]) / seg[i]` and the point is
    /// `x[i]·(1 − u) + x[i+1]·u` (the reference's numpy expression, evaluated in that order).
    private mutating func lerp(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double], limit: Int) throws(DrawingLimitError) {
        let count = x.count
        let total = measureSegments(x: x, y: y)
        if total == 0 {
            outX.replaceContents(count: 2) { $0[0] = x[0]; $0[1] = x[count - 1] }
            outY.replaceContents(count: 2) { $0[0] = y[0]; $0[1] = y[count - 1] }
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

    /// `np.interp(np.arange(0, L, step), c, x)` with `c` the running sum of segment lengths.
    private mutating func interpolate(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double], limit: Int) throws(DrawingLimitError) {
        let count = x.count
        cumulative.removeAll(keepingCapacity: true)
        cumulative.append(0)
        var total = 0.0
        for index in 0..<(count - 1) {
            total += hypot(x[index + 1] - x[index], y[index + 1] - y[index])
            cumulative.append(total)
        }
        if total == 0 {
            outX.append(contentsOf: [x[0], x[count - 1]])
            outY.append(contentsOf: [y[0], y[count - 1]])
            return
        }
        let sampleCount = try boundedSampleCount(below: total, limit: limit)
        outX.append(contentsOf: repeatElement(0, count: sampleCount + 1))
        outY.append(contentsOf: repeatElement(0, count: sampleCount + 1))
        cumulative.withUnsafeBufferPointer { c in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    outX.withUnsafeMutableBufferPointer { outX in
                        outY.withUnsafeMutableBufferPointer { outY in
                            Self.interpolate(c: c, x: x, y: y, step: step, sampleCount: sampleCount,
                                             outX: outX, outY: outY)
                        }
                    }
                }
            }
        }
    }

    /// Fills `outX`/`outY` (sampleCount + 1 slots) with the samples and the original last point.
    ///
    /// t_j = j·step (numpy's arange); segment i is the last with c[i] <= t_j; the value is X[i]
    /// when t_j == c[i], else slope·(t_j − c[i]) + X[i] with the slope of segment i computed
    /// once, exactly as np.interp does.
    private static func interpolate(c: UnsafeBufferPointer<Double>, x: UnsafeBufferPointer<Double>,
                                    y: UnsafeBufferPointer<Double>, step: Double, sampleCount: Int,
                                    outX: UnsafeMutableBufferPointer<Double>, outY: UnsafeMutableBufferPointer<Double>) {
        var segment = 0
        var slopeX = 0.0, slopeY = 0.0
        var slopeSegment = -1
        for sampleIndex in 0..<sampleCount {
            let t = Double(sampleIndex) * step
            while c[segment + 1] <= t { segment += 1 }
            let start = c[segment]
            if start == t {
                outX[sampleIndex] = x[segment]
                outY[sampleIndex] = y[segment]
                continue
            }
            if slopeSegment != segment {
                let run = c[segment + 1] - start
                slopeX = (x[segment + 1] - x[segment]) / run
                slopeY = (y[segment + 1] - y[segment]) / run
                slopeSegment = segment
            }
            outX[sampleIndex] = slopeX * (t - start) + x[segment]
            outY[sampleIndex] = slopeY * (t - start) + y[segment]
        }
        outX[sampleCount] = x[x.count - 1]
        outY[sampleCount] = y[y.count - 1]
    }

    /// Segment walk carrying the distance still needed to the next sample.
    ///
    /// Segment i places at most `len_i / step + 1` points, so `L / step + segments + 2` bounds
    /// the output; that bound is checked against `limit` before the walk.
    private func carry(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double], limit: Int) throws(DrawingLimitError) {
        let count = x.count
        var total = 0.0
        for index in 0..<(count - 1) {
            total += PythonHypot.hypot(x[index + 1] - x[index], y[index + 1] - y[index])
        }
        let bound = total / step + Double(count + 1)
        guard bound.isFinite, bound <= Double(limit) else {
            throw Self.overLimit(needed: bound.isFinite ? Int(min(bound, 1e15)) : Int.max, limit: limit)
        }
        outX.append(x[0])
        outY.append(y[0])
        var needed = step
        for index in 0..<(count - 1) {
            let dx = x[index + 1] - x[index]
            let dy = y[index + 1] - y[index]
            let length = PythonHypot.hypot(dx, dy)
            var position = needed
            while position <= length {
                let fraction = position / length
                outX.append(x[index] + dx * fraction)
                outY.append(y[index] + dy * fraction)
                position += step
            }
            needed = position - length
        }
        outX.append(x[count - 1])
        outY.append(y[count - 1])
    }
}
