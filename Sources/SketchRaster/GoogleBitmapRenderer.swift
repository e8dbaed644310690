import SketchCore

/// Google's Quick, Draw! `numpy_bitmap` renderer: 28×28, white on black, from simplified strokes.
///
/// Byte-exact with the official bitmap files (see `StrokeRenderer` for the cairo recipe and
/// `StrokeRenderOptions.googleBitmap` for the geometry). Input must be *simplified* drawings
/// (coordinates in 0...255); raw drawings are simplified first by the callers.
public struct GoogleBitmapRenderer {
    private let renderer = StrokeRenderer(options: .googleBitmap)

    /// Creates a renderer with its own cairo surface.
    public init() {}

    /// The 784 bytes of `drawing`'s bitmap, row-major, as in one row of a numpy_bitmap file;
    /// throws `RenderRange.outOfRange` for a point beyond cairo's range once placed.
    public func render(_ drawing: Drawing) throws(DrawingLimitError) -> [UInt8] { try renderer.render(drawing) }
}
