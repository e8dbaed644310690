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
        return Drawing(strokes: drawing.strokes.map { stroke in
            simplifier.keptIndices(x: stroke.x, y: stroke.y, into: &kept)
            return Stroke(x: kept.map { stroke.x[$0] }, y: kept.map { stroke.y[$0] })
        })
    }

    /// Marks a stack entry `(index, emitMarker)` that emits `index` instead of splitting a range.
    private static let emitMarker = -1

    /// The first interior point at the largest distance from the chord `start`–`end`, and that distance.
    @inline(__always)
    private func farthestPoint(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
                               start: Int, end: Int) -> (Int, Double) {
        let ax = x[start], ay = y[start]
        let dx = x[end] - ax, dy = y[end] - ay
        let chord = (dx * dx + dy * dy).squareRoot()
        guard chord == 0 else {
            return Self.farthestFromLine(x: x, y: y, start: start, end: end, chord: chord)
        }
        var best = start + 1
        var maximum = -Double.infinity
        for index in (start + 1)..<end {
            let px = x[index] - ax, py = y[index] - ay
            let value = (px * px + py * py).squareRoot()
            if value > maximum {
                maximum = value
                best = index
            }
        }
        return (best, maximum)
    }

    /// The scan for a chord of non-zero length, in its own function so that its few
    /// values stay in registers.
    ///
    /// The quotient |cross| / chord is monotonic in |cross|, so a point can only raise the
    /// maximum distance when its |cross| exceeds the largest seen; dividing only then gives the
    /// same first maximum as dividing at every point.
    @inline(never)
    private static func farthestFromLine(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
                                         start: Int, end: Int, chord: Double) -> (Int, Double) {
        let ax = x[start], ay = y[start]
        let dx = x[end] - ax, dy = y[end] - ay
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
