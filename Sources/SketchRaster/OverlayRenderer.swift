import SketchCore

/// Draws two versions of one sketch on top of each other, in two colours, with a shared frame:
/// the reference (e.g. Google's official simplified drawing) thick in blue, ours thin in orange on
/// top. Where they agree the orange line runs inside the blue one; deviations stand out.
public struct OverlayRenderer {
    /// Colour of the reference drawing.
    public static let referenceColor = RGBColor(red: 0.16, green: 0.44, blue: 0.85)
    /// Colour of our drawing.
    public static let oursColor = RGBColor(red: 0.95, green: 0.40, blue: 0.0)

    /// Output width and height of the drawing area in pixels (a caption strip is added below).
    public var side: Int

    /// Creates a renderer producing `side`×`side` drawings plus a caption strip.
    public init(side: Int = 256) {
        precondition(side > 16, "overlay side must exceed 16 px")
        self.side = side
    }

    /// The overlay of `ours` over `reference`, with `caption` (and a colour legend) underneath.
    public func render(ours: Drawing, reference: Drawing, caption: String) -> RGBImage {
        let captionHeight = 32
        let canvas = RGBCanvas(width: side, height: side + captionHeight)
        let box = CanvasBox(x: 0, y: 0, width: Double(side), height: Double(side)).inset(by: 8)
        let frame = SketchFrame.fitting([ours, reference])
        let unit = Double(side) / 256
        canvas.stroke(reference, frame: frame, in: box, color: Self.referenceColor, lineWidth: max(3, 4 * unit))
        canvas.stroke(ours, frame: frame, in: box, color: Self.oursColor, lineWidth: max(2, 1.5 * unit))
        let maxWidth = Double(side) - 8
        canvas.text(caption, x: 4, y: Double(side) + 13, size: 11, maxWidth: maxWidth, color: .labelGray)
        canvas.text(
            "blue: official", x: 4, y: Double(side) + 27, size: 11, maxWidth: maxWidth / 2,
            color: Self.referenceColor)
        canvas.text(
            "orange: ours", x: Double(side) / 2, y: Double(side) + 27, size: 11, maxWidth: maxWidth / 2,
            color: Self.oursColor)
        return canvas.rgbImage()
    }
}
