#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Step 3 of the simplification: places points at a fixed spacing along a stroke's path.
///
/// Both methods emit the first point, then one point per `step` of arc length strictly before
/// the path's end, then the original last point. A one-point stroke becomes two identical
/// points; a stroke of zero length becomes its first and last point. Segment lengths use the C
/// library's `hypot`, as numpy does, so results agree bit for bit with the Python reference.
public struct ArcLengthResampler: Sendable {
    /// Placement method (`.none` copies the input).
    public var method: SimplificationOptions.Resampling
    /// Spacing between emitted points.
    public var step: Double
    private var cumulative: [Double] = []

    /// Creates a resampler.
    public init(method: SimplificationOptions.Resampling, step: Double) {
        precondition(step > 0, "resampling step must be positive")
        self.method = method
        self.step = step
    }

    /// Replaces `outX`/`outY` with the resampled points of the stroke `x`/`y` (non-empty, equal counts).
    public mutating func resample(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double]) {
        outX.removeAll(keepingCapacity: true)
        outY.removeAll(keepingCapacity: true)
        let count = x.count
        precondition(count > 0 && y.count == count, "resample needs a non-empty stroke")
        if count == 1 {
            outX.append(contentsOf: [x[0], x[0]])
            outY.append(contentsOf: [y[0], y[0]])
            return
        }
        switch method {
        case .none:
            outX.append(contentsOf: x)
            outY.append(contentsOf: y)
        case .interpolated:
            interpolate(x: x, y: y, outX: &outX, outY: &outY)
        case .carried:
            carry(x: x, y: y, outX: &outX, outY: &outY)
        }
    }

    /// `np.interp(np.arange(0, L, step), c, x)` with `c` the running sum of segment lengths.
    private mutating func interpolate(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double]) {
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
        cumulative.withUnsafeBufferPointer { c in
            // t_j = j·step (numpy's arange) for j while t_j < total; segment i is the last with c[i] <= t.
            var segment = 0
            var sampleIndex = 0
            while true {
                let t = Double(sampleIndex) * step
                if !(t < total) { break }
                while c[segment + 1] <= t { segment += 1 }
                if c[segment] == t {
                    outX.append(x[segment])
                    outY.append(y[segment])
                } else {
                    let run = c[segment + 1] - c[segment]
                    let offset = t - c[segment]
                    outX.append((x[segment + 1] - x[segment]) / run * offset + x[segment])
                    outY.append((y[segment + 1] - y[segment]) / run * offset + y[segment])
                }
                sampleIndex += 1
            }
        }
        outX.append(x[count - 1])
        outY.append(y[count - 1])
    }

    /// Segment walk carrying the distance still needed to the next sample.
    private func carry(x: [Double], y: [Double], outX: inout [Double], outY: inout [Double]) {
        let count = x.count
        outX.append(x[0])
        outY.append(y[0])
        var needed = step
        for index in 0..<(count - 1) {
            let dx = x[index + 1] - x[index]
            let dy = y[index + 1] - y[index]
            let length = hypot(dx, dy)
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
