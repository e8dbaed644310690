/// Step 4 of the simplification: Ramer–Douglas–Peucker polyline simplification.
///
/// Between two kept points, the interior point farthest from the chord is kept when its
/// distance is strictly greater than `epsilon` (the first one wins ties), and both halves are
/// processed the same way; the end points are always kept. Iterative, with reusable buffers.
/// The distance is to the infinite line through the end points (the Python `rdp` package's
/// reading, which Google's files follow): `|dx·(a.y − p.y) − dy·(a.x − p.x)| / sqrt(dx·dx + dy·dy)`,
/// and with coincident ends `sqrt(px·px + py·py)` to the end point, each evaluated in exactly
/// that order so it agrees bit for bit with the parity reference (docs/parity.md).
public struct RamerDouglasPeucker: Sendable {
    /// Tolerance; points at exactly `epsilon` are dropped.
    public var epsilon: Double
    private var stack: [(start: Int, end: Int)] = []

    /// Creates a simplifier.
    public init(epsilon: Double) {
        self.epsilon = epsilon
    }

    /// Replaces `kept` with the indices of the points of the polyline `x`/`y` that survive, in
    /// increasing order (the two end points included).
    ///
    /// Ranges are visited in order (left part, then the split point, then the right part), so
    /// the indices come out sorted without a sort.
    public mutating func keptIndices(x: [Double], y: [Double], into kept: inout [Int]) {
        let count = x.count
        kept.removeAll(keepingCapacity: true)
        guard count > 0 else { return }
        kept.append(0)
        guard count > 1 else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append((0, count - 1))
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                while let (start, end) = stack.popLast() {
                    if end == Self.emitMarker {
                        kept.append(start)
                        continue
                    }
                    guard end - start >= 2 else { continue }
                    let (farthest, maximum) = farthestPoint(x: x, y: y, start: start, end: end)
                    if maximum > epsilon {
                        stack.append((farthest, end))
                        stack.append((farthest, Self.emitMarker))
                        stack.append((start, farthest))
                    }
                }
            }
        }
        kept.append(count - 1)
    }

    /// `drawing` with each stroke reduced to its kept points (as sketch-rnn's data was made from
    /// Quick, Draw!'s strokes).
    package func reduce(_ drawing: Drawing) -> Drawing {
        var simplifier = self
        var kept: [Int] = []
        return Drawing(
            strokes: drawing.strokes.map { stroke in
                simplifier.keptIndices(x: stroke.x, y: stroke.y, into: &kept)
                return Stroke(x: kept.map { stroke.x[$0] }, y: kept.map { stroke.y[$0] })
            })
    }

    /// Marks a stack entry `(index, emitMarker)` that emits `index` instead of splitting a range.
    private static let emitMarker = -1

    /// The first interior point at the largest distance from the chord `start`–`end`, and that distance.
    @inline(__always)
    private func farthestPoint(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        start: Int, end: Int
    ) -> (Int, Double) {
        let ax = x[start]
        let ay = y[start]
        let dx = x[end] - ax
        let dy = y[end] - ay
        let chord = (dx * dx + dy * dy).squareRoot()
        guard chord == 0 else {
            return Self.farthestFromLine(x: x, y: y, start: start, end: end, chord: chord, epsilon: epsilon)
        }
        var best = start + 1
        var maximum = -Double.infinity
        for index in (start + 1)..<end {
            let px = x[index] - ax
            let py = y[index] - ay
            let value = (px * px + py * py).squareRoot()
            if value > maximum {
                maximum = value
                best = index
            }
        }
        return (best, maximum)
    }

    /// The scan for a chord of non-zero length: the first interior point whose distance
    /// `|cross| / chord` is the largest, and that distance; when the largest distance is not
    /// above `epsilon` the index is not needed and is `start + 1`.
    ///
    /// Division is monotonic, so the largest distance is `maxCross / chord`. The first pass
    /// finds `maxCross` without branches, four points per step in independent lanes (written
    /// as scalars so the compiler packs them into two-lane vector instructions); only when that
    /// distance exceeds `epsilon` (a split) does a second pass look for the first point whose
    /// distance equals it. Any |cross| whose quotient equals the largest one lies within 2⁻⁵¹
    /// relative of `maxCross`, so the second pass divides only where |cross| ≥
    /// `maxCross · (1 − 2⁻⁴⁰)` and stops at the first point found: the same point, and the same
    /// distance, as dividing at every point and keeping the first strict maximum. Every lane
    /// evaluates `dx·(a.y − p.y) − dy·(a.x − p.x)` in that order, so the bits agree.
    @inline(never)
    private static func farthestFromLine(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        start: Int, end: Int, chord: Double, epsilon: Double
    ) -> (Int, Double) {
        let ax = x[start]
        let ay = y[start]
        let dx = x[end] - ax
        let dy = y[end] - ay
        let xs = x.baseAddress.unsafelyUnwrapped
        let ys = y.baseAddress.unsafelyUnwrapped
        @inline(__always) func signedCross(_ index: Int) -> Double {
            dx * (ay - ys[index]) - dy * (ax - xs[index])
        }
        // Pass 1: the largest |cross|, from the largest and smallest signed cross per lane.
        var high0 = 0.0
        var high1 = 0.0
        var high2 = 0.0
        var high3 = 0.0
        var low0 = 0.0
        var low1 = 0.0
        var low2 = 0.0
        var low3 = 0.0
        var index = start + 1
        while index &+ 4 <= end {
            let c0 = signedCross(index)
            let c1 = signedCross(index &+ 1)
            let c2 = signedCross(index &+ 2)
            let c3 = signedCross(index &+ 3)
            high0 = c0 > high0 ? c0 : high0
            high1 = c1 > high1 ? c1 : high1
            high2 = c2 > high2 ? c2 : high2
            high3 = c3 > high3 ? c3 : high3
            low0 = c0 < low0 ? c0 : low0
            low1 = c1 < low1 ? c1 : low1
            low2 = c2 < low2 ? c2 : low2
            low3 = c3 < low3 ? c3 : low3
            index &+= 4
        }
        var largestCross = Swift.max(
            Swift.max(Swift.max(high0, high1), Swift.max(high2, high3)),
            -Swift.min(Swift.min(low0, low1), Swift.min(low2, low3)))
        while index < end {
            largestCross = Swift.max(largestCross, abs(signedCross(index)))
            index &+= 1
        }
        guard largestCross.isFinite else {
            return firstFarthestFromLine(x: x, y: y, start: start, end: end, chord: chord)
        }
        let maximum = largestCross / chord
        guard maximum > epsilon else { return (start + 1, maximum) }
        // Pass 2: the first point whose quotient equals the maximum.
        let candidate = largestCross - largestCross * 0x1p-40
        index = start + 1
        while index &+ 2 <= end {
            if Swift.max(abs(signedCross(index)), abs(signedCross(index &+ 1))) >= candidate { break }
            index &+= 2
        }
        while index < end {
            let value = abs(signedCross(index))
            if value >= candidate && value / chord == maximum { return (index, maximum) }
            index &+= 1
        }
        // Only NaN coordinates get here: a finite largest |cross| is some point's.
        return firstFarthestFromLine(x: x, y: y, start: start, end: end, chord: chord)
    }

    /// The rule of `farthestFromLine` in one scalar pass (divide only when a new largest |cross|
    /// appears, keep the first strict maximum), for the non-finite values the two-pass scan
    /// leaves to it.
    private static func firstFarthestFromLine(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        start: Int, end: Int, chord: Double
    ) -> (Int, Double) {
        let ax = x[start]
        let ay = y[start]
        let dx = x[end] - ax
        let dy = y[end] - ay
        var best = start + 1
        var maximum = -Double.infinity
        var largestCross = -1.0
        for index in (start + 1)..<end {
            let cross = abs(dx * (ay - y[index]) - dy * (ax - x[index]))
            if cross > largestCross {
                largestCross = cross
                let value = cross / chord
                if value > maximum {
                    maximum = value
                    best = index
                }
            }
        }
        return (best, maximum)
    }
}
