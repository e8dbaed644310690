/// The bounds every drawing is held to, so that the work and memory spent on one record are
/// bounded and no arithmetic on its numbers can overflow or produce NaN or infinity.
///
/// The NDJSON parser checks the number and size bounds where it reads them; the simplifier
/// checks the resampling bounds from each stroke's arc length before it allocates. A record over
/// any bound is quarantined with the reason named here. docs/limits.md lists every cap and why.
public enum DrawingLimits {
    /// Largest accepted `|x|` or `|y|` of an input coordinate. Raw captures are screen pixels
    /// (the shared data stays below 2,300); 10⁹ leaves room for any real device while keeping
    /// squared extents (≤ 4·10¹⁸) and float32 tensor values far from overflow.
    public static let maximumCoordinateMagnitude = 1e9
    /// Largest accepted `|x|` or `|y|` of a drawing used as already simplified (not simplified
    /// again): the largest `scale_target`, so such drawings look like simplified ones.
    public static let maximumSimplifiedCoordinate = 65_535.0
    /// Largest accepted `|t|` (milliseconds since the first point; the shared data stays below
    /// 10⁵). Timestamps are checked and carried, never used in arithmetic.
    public static let maximumTimestampMagnitude = 1e15
    /// Longest accepted NDJSON line in bytes (a record at `maximumPoints` with 17-digit raw
    /// coordinates and timestamps takes about 5 MB). Longer lines are quarantined truncated.
    public static let maximumLineBytes = 16 << 20
    /// Most strokes in one drawing (the shared data has at most 55).
    public static let maximumStrokes = 10_000
    /// Most points over all strokes of one drawing (the shared data has at most 1,174).
    public static let maximumPoints = 100_000
    /// Most points resampling may place on one stroke (its scaled arc length over the step; the
    /// shared data needs at most 35,929 with Google's parameters).
    public static let maximumResampledPointsPerStroke = 100_000
    /// Most points resampling may place over all strokes of one drawing.
    public static let maximumResampledPointsPerDrawing = 400_000
    /// Largest accepted ratio `scaleTarget / resampleStep` (the resampled points per unit of
    /// scaled path, up to the extent; Google's own is 255).
    public static let maximumScaleOverStep = 65_536.0

    /// The quarantine reason of a coordinate or timestamp that is not finite or beyond its bound.
    public static let coordinateOutOfRange = "coordinate out of range"
    /// The quarantine reason of a drawing with more strokes than `maximumStrokes`.
    public static let tooManyStrokes = "too many strokes"
    /// The quarantine reason of a drawing with more points than `maximumPoints`.
    public static let tooManyPoints = "too many points"
    /// The quarantine reason of a drawing whose resampling would exceed a resampling cap.
    public static let tooManyResampledPoints = "too many resampled points"

    /// Throws the reason when `drawing` (built from a file other than NDJSON, e.g. the cumulative
    /// sums of stroke-3 rows) breaks an input bound: a coordinate not finite or beyond
    /// `maximumCoordinateMagnitude`, more than `maximumStrokes` strokes or `maximumPoints` points.
    public static func checkInput(_ drawing: Drawing) throws(DrawingLimitError) {
        guard drawing.strokes.count <= maximumStrokes else {
            throw DrawingLimitError(.tooManyStrokes, "\(drawing.strokes.count), more than \(maximumStrokes)")
        }
        guard drawing.pointCount <= maximumPoints else {
            throw DrawingLimitError(.tooManyPoints, "\(drawing.pointCount), more than \(maximumPoints)")
        }
        for (number, stroke) in drawing.strokes.enumerated() {
            for value in stroke.x + stroke.y where !(value.magnitude <= maximumCoordinateMagnitude) {
                throw DrawingLimitError(.coordinateOutOfRange, "stroke \(number + 1) has \(value), beyond ±1e9")
            }
        }
    }

    /// Throws `coordinate out of range` when a coordinate of `drawing` is beyond
    /// `maximumSimplifiedCoordinate` (for drawings taken as simplified without simplifying them).
    public static func checkSimplified(_ drawing: Drawing) throws(DrawingLimitError) {
        for (number, stroke) in drawing.strokes.enumerated() {
            for value in stroke.x + stroke.y where !(value.magnitude <= maximumSimplifiedCoordinate) {
                throw DrawingLimitError(
                    .coordinateOutOfRange,
                    "stroke \(number + 1) has \(value), beyond"
                        + " ±\(Int(maximumSimplifiedCoordinate)) for a drawing used as simplified")
            }
        }
    }
}

/// The one error type of SketchCore: why a drawing was refused by a bound of `DrawingLimits`, the
/// renderer's range (`RenderRange`) or a shape the step cannot use. `kind` says which; `reason` is
/// the text a quarantine line and a message carry.
public struct DrawingLimitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which refusal.
    public enum Kind: String, Sendable {
        /// More strokes than `DrawingLimits.maximumStrokes`.
        case tooManyStrokes
        /// More points than `DrawingLimits.maximumPoints`.
        case tooManyPoints
        /// A coordinate or timestamp not finite or beyond its bound, or an extent that overflows.
        case coordinateOutOfRange
        /// Resampling would place more points than a resampling cap.
        case tooManyResampledPoints
        /// A point beyond the renderer's range once placed (`RenderRange`).
        case beyondRenderRange
        /// A time channel met a drawing without times.
        case missingTimes
        /// A drawing without strokes.
        case emptyDrawing
        /// A stroke without points.
        case emptyStroke

        /// The phrase `reason` starts with (the quarantine reason's name), or nil when the detail
        /// is the whole reason.
        public var phrase: String? {
            switch self {
            case .tooManyStrokes: DrawingLimits.tooManyStrokes
            case .tooManyPoints: DrawingLimits.tooManyPoints
            case .coordinateOutOfRange: DrawingLimits.coordinateOutOfRange
            case .tooManyResampledPoints: DrawingLimits.tooManyResampledPoints
            case .beyondRenderRange: RenderRange.outOfRange
            case .missingTimes, .emptyDrawing, .emptyStroke: nil
            }
        }
    }

    /// Which refusal.
    public var kind: Kind
    /// The reason: `phrase: detail` when the kind has a phrase, else the detail.
    public var reason: String

    /// Creates an error of `kind`; `detail` says what in the drawing is at fault.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.reason = kind.phrase.map { "\($0): \(detail)" } ?? detail
    }

    /// The reason.
    public var description: String { reason }
}
