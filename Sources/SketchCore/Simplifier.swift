/// Converts raw drawings to Google's simplified form: align to the top-left, scale uniformly so
/// the larger extent becomes `scaleTarget`, resample every stroke, simplify it with RDP, round
/// half to even.
///
/// Holds scratch buffers, so one instance per thread converts a whole stream without per-point
/// allocations (only the output strokes are allocated). Output coordinates are integral
/// `Double`s; timestamps are dropped, as in Google's simplified files.
public struct Simplifier: Sendable {
    /// The parameters in use.
    public let options: SimplificationOptions
    private var resampler: ArcLengthResampler
    private var rdp: RamerDouglasPeucker
    private var scaledX: [Double] = []
    private var scaledY: [Double] = []
    private var sampledX: [Double] = []
    private var sampledY: [Double] = []
    private var kept: [Int] = []
    private var reusedInput = FlatStrokes()
    private var reusedOutput = FlatStrokes()

    /// Creates a simplifier with `options`.
    public init(options: SimplificationOptions = .google) {
        self.options = options
        resampler = ArcLengthResampler(step: options.resampleStep)
        rdp = RamerDouglasPeucker(epsilon: options.epsilon)
    }

    /// Simplifies `drawing`. Empty strokes are dropped; an empty drawing stays empty.
    /// A drawing with no extent (all points equal) maps every point to 0.
    public mutating func simplify(_ drawing: Drawing) -> Drawing {
        var strokes = FlatStrokes()
        swap(&strokes, &reusedOutput)
        defer { swap(&strokes, &reusedOutput) }
        simplify(drawing, into: &strokes)
        return strokes.drawing
    }

    /// Simplifies `drawing` into `strokes` (replacing its contents), as `simplify(_:)` does.
    public mutating func simplify(_ drawing: Drawing, into strokes: inout FlatStrokes) {
        var input = FlatStrokes()
        swap(&input, &reusedInput)
        defer { swap(&input, &reusedInput) }
        input.replaceContents(with: drawing)
        simplify(input, into: &strokes)
    }

    /// Simplifies the strokes in `input` into `strokes` (replacing its contents), as
    /// `simplify(_:)` does, reusing the storage of `strokes` and of this simplifier: no
    /// allocation per drawing once the buffers have grown to the largest drawing seen.
    public mutating func simplify(_ input: FlatStrokes, into strokes: inout FlatStrokes) {
        strokes.removeAll()
        guard let frame = AlignmentFrame(x: input.x, y: input.y) else { return }
        input.x.withUnsafeBufferPointer { x in
            input.y.withUnsafeBufferPointer { y in
                for index in 0..<input.strokeCount {
                    let points = input.pointRange(ofStroke: index)
                    guard !points.isEmpty else { continue }
                    frame.scale(UnsafeBufferPointer(rebasing: x[points]), minimum: frame.minimumX, options: options, into: &scaledX)
                    frame.scale(UnsafeBufferPointer(rebasing: y[points]), minimum: frame.minimumY, options: options, into: &scaledY)
                    resampler.resample(x: scaledX, y: scaledY, outX: &sampledX, outY: &sampledY)
                    rdp.keptIndices(x: sampledX, y: sampledY, into: &kept)
                    appendRoundedKeptPoints(to: &strokes)
                }
            }
        }
    }

    private func appendRoundedKeptPoints(to strokes: inout FlatStrokes) {
        kept.withUnsafeBufferPointer { kept in
            sampledX.withUnsafeBufferPointer { sampledX in
                sampledY.withUnsafeBufferPointer { sampledY in
                    strokes.appendStroke(count: kept.count) { x, y in
                        for (slot, index) in kept.enumerated() {
                            x[slot] = IntegerRounding.halfToEven(sampledX[index])
                            y[slot] = IntegerRounding.halfToEven(sampledY[index])
                        }
                    }
                }
            }
        }
    }
}

/// One-shot entry points for callers that do not keep a `Simplifier`.
public enum GoogleSimplifier {
    /// Simplifies `drawing` with `options` (see `Simplifier`).
    public static func simplify(_ drawing: Drawing, options: SimplificationOptions = .google) -> Drawing {
        var simplifier = Simplifier(options: options)
        return simplifier.simplify(drawing)
    }
}

/// Steps 1 and 2: the drawing's minimum corner and its larger extent.
struct AlignmentFrame {
    let minimumX: Double
    let minimumY: Double
    /// The larger extent after alignment, or 1 when the drawing has none.
    let extent: Double

    /// Measures the points `x`/`y`; nil when there are none.
    ///
    /// The reference takes the maximum of the aligned values `v − min`; rounding is monotonic,
    /// so that equals `max(v) − min` exactly and one pass over the points finds all four bounds.
    init?(x: [Double], y: [Double]) {
        func bounds(_ values: [Double]) -> (minimum: Double, maximum: Double) {
            var minimum = Double.infinity, maximum = -Double.infinity
            values.withUnsafeBufferPointer { values in
                for value in values {
                    minimum = value < minimum ? value : minimum
                    maximum = value > maximum ? value : maximum
                }
            }
            return (minimum, maximum)
        }
        let (minimumX, maximumX) = bounds(x)
        let (minimumY, maximumY) = bounds(y)
        guard minimumX.isFinite else { return nil }
        let extent = Swift.max(maximumX - minimumX, maximumY - minimumY)
        self.minimumX = minimumX
        self.minimumY = minimumY
        self.extent = extent == 0 ? 1 : extent
    }

    /// Aligns and scales `values` into `output` (replacing its contents).
    func scale(_ values: UnsafeBufferPointer<Double>, minimum: Double, options: SimplificationOptions, into output: inout [Double]) {
        let target = options.scaleTarget, extent = self.extent
        output.replaceContents(count: values.count) { output in
            // `v · target / m`: multiply first, then divide, as the reference does.
            for index in values.indices { output[index] = (values[index] - minimum) * target / extent }
        }
    }
}

/// Rounding to integers with plain IEEE arithmetic.
///
/// `Double.rounded(_:)` becomes a libm call on baseline x86-64 (no SSE4.1 `roundsd`), which
/// showed up at 7 % of the simplify profile. Adding and subtracting 2^52 rounds to the nearest
/// integer, ties to even, in the default rounding mode; values at or beyond 2^52 are integral.
enum IntegerRounding {
    private static let twoToThe52 = 4_503_599_627_370_496.0

    /// `value.rounded(.toNearestOrEven)` for finite values.
    @inline(__always)
    static func halfToEven(_ value: Double) -> Double {
        guard abs(value) < twoToThe52 else { return value }
        return value < 0 ? -((twoToThe52 - value) - twoToThe52) : (value + twoToThe52) - twoToThe52
    }
}
