import SketchCore

/// Which colour the ink and the background get in a rendered sketch.
public enum RasterPolarity: String, Sendable, CaseIterable, Codable {
    /// White strokes on black (Google's numpy_bitmap files, MNIST-like): ink = 255.
    case whiteOnBlack = "white-on-black"
    /// Black strokes on white (TU-Berlin PNGs, the book's drawing app): ink = 0.
    case blackOnWhite = "black-on-white"
}

/// Geometry of a stroke rasterisation, in the 256-unit coordinate frame of simplified drawings.
///
/// The drawing is assumed to lie in `0...referenceSide` (Google's simplified format); it is centred
/// by its maximum only (`offset = (referenceSide - max) / 2` per axis, the minimum being 0), then the
/// whole padded frame `referenceSide + 2 * padding + lineWidth` is scaled onto `side` pixels.
public struct StrokeRenderOptions: Equatable, Sendable, Codable {
    /// Output width and height in pixels.
    public var side: Int
    /// Pen diameter in 256-units (scaled with the drawing).
    public var lineWidth: Double
    /// Margin on each side in 256-units; half a line width is added on top so strokes never clip.
    public var padding: Double
    /// Ink/background colours.
    public var polarity: RasterPolarity
    /// Side of the input coordinate frame (255 for simplified data, rounded up to 256 as Google does).
    public var referenceSide: Double

    /// Creates options; see the property docs for the meaning of each value.
    public init(
        side: Int, lineWidth: Double = 16, padding: Double = 16,
        polarity: RasterPolarity = .whiteOnBlack, referenceSide: Double = 256
    ) {
        self.side = side
        self.lineWidth = lineWidth
        self.padding = padding
        self.polarity = polarity
        self.referenceSide = referenceSide
    }

    /// Largest `side` a caller may ask for (`--size`, `sketchprep.bitmap`'s `size`).
    public static let maximumRequestedSide = 8192

    /// Why these options are refused (a side outside 1…``maximumRequestedSide``, a line width
    /// that is not positive, a negative padding), each option named by `name` (`--size` in the
    /// CLI, `size` in Python), or nil: the one check of every caller.
    public func validationProblem(naming name: (String) -> String) -> String? {
        guard (1...Self.maximumRequestedSide).contains(side) else {
            return "\(name("size")) must be between 1 and \(Self.maximumRequestedSide)"
        }
        guard lineWidth > 0, padding >= 0 else { return "\(name("line-width")) must be > 0 and \(name("padding")) >= 0" }
        return nil
    }

    /// Google's numpy_bitmap recipe: 28×28, line width 16, padding 16, white on black.
    public static let googleBitmap = StrokeRenderOptions(side: 28)

    /// Total margin added to the reference frame: both paddings plus one line width.
    public var totalPadding: Double { 2 * padding + lineWidth }

    /// Pixels per 256-unit.
    public var scale: Double { Double(side) / (referenceSide + totalPadding) }

    /// `RenderRange`'s check of `drawing` placed as the renderers place it: shifted by its centring
    /// offsets and half the padding, scaled, widened by half the pen. Every stroke renderer calls it
    /// before it draws.
    package func checkRange(_ drawing: Drawing, offsetX: Double, offsetY: Double) throws(DrawingLimitError) {
        try RenderRange.check(
            drawing, offsetX: offsetX + totalPadding / 2, offsetY: offsetY + totalPadding / 2, scale: scale,
            margin: lineWidth * scale / 2)
    }
}
