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
    ///
    /// Throws `DrawingLimitError` when resampling would place more points than
    /// `DrawingLimits.maximumResampledPointsPerStroke` on a stroke or
    /// `DrawingLimits.maximumResampledPointsPerDrawing` on the drawing (checked from each
    /// stroke's arc length before its points are placed), or when a coordinate is not finite.
    public mutating func simplify(_ drawing: Drawing) throws(DrawingLimitError) -> Drawing {
        var strokes = FlatStrokes()
        swap(&strokes, &reusedOutput)
        defer { swap(&strokes, &reusedOutput) }
        try simplify(drawing, into: &strokes)
        return strokes.drawing
    }

    /// Simplifies `drawing` into `strokes` (replacing its contents), as `simplify(_:)` does.
    public mutating func simplify(_ drawing: Drawing, into strokes: inout FlatStrokes) throws(DrawingLimitError) {
        var input = FlatStrokes()
        swap(&input, &reusedInput)
        defer { swap(&input, &reusedInput) }
        input.replaceContents(with: drawing)
        try simplify(input, into: &strokes)
    }

    /// Simplifies the strokes in `input` into `strokes` (replacing its contents), as
    /// `simplify(_:)` does, reusing the storage of `strokes` and of this simplifier: no
    /// allocation per drawing once the buffers have grown to the largest drawing seen.
    public mutating func simplify(_ input: FlatStrokes, into strokes: inout FlatStrokes) throws(DrawingLimitError) {
        strokes.removeAll()
        guard let frame = try AlignmentFrame(x: input.x, y: input.y) else { return }
        var remaining = DrawingLimits.maximumResampledPointsPerDrawing
        for index in 0..<input.strokeCount {
            let points = input.pointRange(ofStroke: index)
            guard !points.isEmpty else { continue }
            input.x.withUnsafeBufferPointer { x in
                frame.scale(UnsafeBufferPointer(rebasing: x[points]), minimum: frame.minimumX, options: options, into: &scaledX)
            }
            input.y.withUnsafeBufferPointer { y in
                frame.scale(UnsafeBufferPointer(rebasing: y[points]), minimum: frame.minimumY, options: options, into: &scaledY)
            }
            remaining -= try resampler.resample(
                x: scaledX, y: scaledY, outX: &sampledX, outY: &sampledY,
                limit: min(remaining, DrawingLimits.maximumResampledPointsPerStroke))
            rdp.keptIndices(x: sampledX, y: sampledY, into: &kept)
            appendRoundedKeptPoints(to: &strokes)
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
    public static func simplify(_ drawing: Drawing, options: SimplificationOptions = .google) throws(DrawingLimitError) -> Drawing {
        var simplifier = Simplifier(options: options)
        return try simplifier.simplify(drawing)
    }
}

extension GoogleSimplifier {
    /// Google's steps 1 and 2 alone: `drawing` moved to start at 0, 0 and scaled by
    /// `scaleTarget / larger extent` (as `Simplifier` does before resampling), times kept; the
    /// raw geometry that time-encoding rasters draw.
    public static func alignedAndScaled(_ drawing: Drawing, options: SimplificationOptions = .google) throws(DrawingLimitError) -> Drawing {
        guard let frame = try AlignmentFrame(x: drawing.strokes.flatMap(\.x), y: drawing.strokes.flatMap(\.y)) else { return drawing }
        return Drawing(
            strokes: drawing.strokes.map { stroke in
                var x: [Double] = []
                var y: [Double] = []
                stroke.x.withUnsafeBufferPointer { frame.scale($0, minimum: frame.minimumX, options: options, into: &x) }
                stroke.y.withUnsafeBufferPointer { frame.scale($0, minimum: frame.minimumY, options: options, into: &y) }
                return Stroke(x: x, y: y, t: stroke.t)
            })
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
    /// Throws `coordinate out of range` when a point is not finite or an extent overflows
    /// (the parser refuses such input first; this keeps drawings built in code safe too).
    init?(x: [Double], y: [Double]) throws(DrawingLimitError) {
        func bounds(_ values: [Double]) -> (minimum: Double, maximum: Double) {
            var minimum = Double.infinity
            var maximum = -Double.infinity
            var sum = 0.0
            values.withUnsafeBufferPointer { values in
                for value in values {
                    minimum = value < minimum ? value : minimum
                    maximum = value > maximum ? value : maximum
                    sum += value * 0  // NaN or ±infinity anywhere makes this NaN
                }
            }
            return sum.isNaN ? (.nan, .nan) : (minimum, maximum)
        }
        let (minimumX, maximumX) = bounds(x)
        let (minimumY, maximumY) = bounds(y)
        guard !x.isEmpty else { return nil }
        let extent = Swift.max(maximumX - minimumX, maximumY - minimumY)
        guard minimumX.isFinite, minimumY.isFinite, extent.isFinite else {
            throw DrawingLimitError(.coordinateOutOfRange, "a coordinate is not finite or the extent overflows")
        }
        self.minimumX = minimumX
        self.minimumY = minimumY
        self.extent = extent == 0 ? 1 : extent
    }

    /// Aligns and scales `values` into `output` (replacing its contents).
    func scale(_ values: UnsafeBufferPointer<Double>, minimum: Double, options: SimplificationOptions, into output: inout [Double]) {
        let target = options.scaleTarget
        let extent = self.extent
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
