#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Step 4 of the simplification: Ramer–Douglas–Peucker polyline simplification.
///
/// Between two kept points, the interior point farthest from the chord is kept when its
/// distance is strictly greater than `epsilon` (the first one wins ties), and both halves are
/// processed the same way; the end points are always kept. Iterative, with reusable buffers.
/// The line distance is `|dx·(a.y − p.y) − dy·(a.x − p.x)| / hypot(dx, dy)`, evaluated in that
/// order so it agrees bit for bit with the Python reference.
public struct RamerDouglasPeucker: Sendable {
    /// Tolerance; points at exactly `epsilon` are dropped.
    public var epsilon: Double
    /// Distance measure.
    public var distance: SimplificationOptions.RDPDistance
    private var stack: [(start: Int, end: Int)] = []

    /// Creates a simplifier.
    public init(epsilon: Double, distance: SimplificationOptions.RDPDistance) {
        self.epsilon = epsilon
        self.distance = distance
    }

    /// Sets `keep[i]` for every point of the polyline `x`/`y` that survives (`keep` is resized).
    public mutating func markKept(x: [Double], y: [Double], keep: inout [Bool]) {
        let count = x.count
        keep.removeAll(keepingCapacity: true)
        keep.append(contentsOf: repeatElement(false, count: count))
        guard count > 0 else { return }
        keep[0] = true
        keep[count - 1] = true
        stack.removeAll(keepingCapacity: true)
        stack.append((0, count - 1))
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                while let (start, end) = stack.popLast() {
                    guard end - start >= 2 else { continue }
                    let (farthest, maximum) = farthestPoint(x: x, y: y, start: start, end: end)
                    if maximum > epsilon {
                        keep[farthest] = true
                        stack.append((start, farthest))
                        stack.append((farthest, end))
                    }
                }
            }
        }
    }

    /// The first interior point at the largest distance from the chord `start`–`end`, and that distance.
    @inline(__always)
    private func farthestPoint(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
                               start: Int, end: Int) -> (Int, Double) {
        let ax = x[start], ay = y[start]
        let dx = x[end] - ax, dy = y[end] - ay
        let chord = hypot(dx, dy)
        var best = start + 1
        var maximum = -Double.infinity
        switch distance {
        case .line where chord != 0:
            for index in (start + 1)..<end {
                let value = abs(dx * (ay - y[index]) - dy * (ax - x[index])) / chord
                if value > maximum {
                    maximum = value
                    best = index
                }
            }
        case .line:
            for index in (start + 1)..<end {
                let value = hypot(x[index] - ax, y[index] - ay)
                if value > maximum {
                    maximum = value
                    best = index
                }
            }
        case .segment:
            let squaredChord = dx * dx + dy * dy
            for index in (start + 1)..<end {
                var fraction = squaredChord == 0 ? 0 : ((x[index] - ax) * dx + (y[index] - ay) * dy) / squaredChord
                fraction = min(max(fraction, 0), 1)
                let value = hypot(x[index] - (ax + fraction * dx), y[index] - (ay + fraction * dy))
                if value > maximum {
                    maximum = value
                    best = index
                }
            }
        }
        return (best, maximum)
    }
}
