import CCairo
import SketchCore

/// Renders stroke drawings to 8-bit grayscale with cairo, exactly as Google's `vector_to_raster`.
///
/// The cairo call sequence is the one of the Quick, Draw! reference renderer (which reproduces the
/// official numpy_bitmap files byte for byte): antialias BEST, round caps and joins, `scale(s, s)`
/// then `translate(totalPadding/2, totalPadding/2)`; per drawing: paint the background, then per
/// stroke `move_to(p0)`, `line_to(p0)`, `line_to(p1)`, …, `stroke()`, with every point shifted by
/// the centring offset. The reference draws black and white on an ARGB32 surface and keeps one
/// channel; this renderer draws on an A8 surface whose alpha is the gray value (white is 255):
/// the background written into the pixels as the byte a `SOURCE` paint of it leaves (0 or 255),
/// white ink stroked `OVER` with an opaque source, black ink stroked with `CLEAR`, which cairo
/// blends per pixel by the same coverage arithmetic, so every pixel is the reference's
/// (`Tests/python/test_bitmap_cli.py`, `test_png_pixels.py`) for a quarter of the memory to paint and
/// blend and no channel to pick out. Source and operator are set once, with the canvas.
///
/// One renderer owns one cairo surface: reuse it for many drawings, do not share it across threads.
public final class StrokeRenderer {
    /// Largest side cairo image surfaces support.
    public static let maximumSide = 32767
    /// The geometry and colours this renderer was created with.
    public let options: StrokeRenderOptions
    private let surface: OpaquePointer
    private let context: OpaquePointer
    /// The background's alpha byte: what `SOURCE`-painting the background colour leaves in every pixel.
    private let backgroundByte: UInt8

    /// Creates a renderer (allocates the cairo surface).
    public init(options: StrokeRenderOptions) {
        self.options = options
        (surface, context) = Self.makeCanvas(options)
        backgroundByte = options.polarity == .whiteOnBlack ? 0 : 255
        cairo_set_source_rgba(context, 0, 0, 0, 1)
        cairo_set_operator(context, options.polarity == .whiteOnBlack ? CAIRO_OPERATOR_OVER : CAIRO_OPERATOR_CLEAR)
    }

    /// A surface `side`×`side` (A8 unless `format` says otherwise) and its context set up as
    /// Google's renderer does (antialias BEST, round caps and joins, the line width, `scale(s, s)`
    /// then the half-padding translation).
    static func makeCanvas(
        _ options: StrokeRenderOptions, format: cairo_format_t = CAIRO_FORMAT_A8
    ) -> (surface: OpaquePointer, context: OpaquePointer) {
        precondition((1...maximumSide).contains(options.side), "raster side must be in 1...\(maximumSide)")
        let surface = cairo_image_surface_create(format, Int32(options.side), Int32(options.side))!
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cairo could not allocate the surface")
        let context = cairo_create(surface)!
        cairo_set_antialias(context, CAIRO_ANTIALIAS_BEST)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(context, options.lineWidth)
        cairo_scale(context, options.scale, options.scale)
        cairo_translate(context, options.totalPadding / 2, options.totalPadding / 2)
        return (surface, context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Renders `drawing` and returns `side * side` bytes, row-major. Throws
    /// `RenderRange.outOfRange` for a drawing with a point beyond cairo's range once placed.
    public func render(_ drawing: Drawing) throws(DrawingLimitError) -> [UInt8] {
        let offsets = try checkedOffsets(of: drawing)
        return [UInt8](unsafeUninitializedCapacity: options.side * options.side) { buffer, count in
            draw(drawing, offsets: offsets)
            copyRows(into: buffer)
            count = options.side * options.side
        }
    }

    /// Renders `drawing` as a `GrayImage` (throws as `render(_:)`).
    public func renderImage(_ drawing: Drawing) throws(DrawingLimitError) -> GrayImage {
        GrayImage(width: options.side, height: options.side, pixels: try render(drawing))
    }

    /// Renders `drawing` into the first `side * side` bytes of `buffer` (no allocation; throws as
    /// `render(_:)`, before drawing anything).
    public func render(_ drawing: Drawing, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DrawingLimitError) {
        precondition(buffer.count >= options.side * options.side, "render buffer too small")
        let offsets = try checkedOffsets(of: drawing)
        draw(drawing, offsets: offsets)
        copyRows(into: buffer)
    }

    /// `drawing`'s centring offsets, once `options.checkRange` has accepted it placed by them.
    private func checkedOffsets(of drawing: Drawing) throws(DrawingLimitError) -> (x: Double, y: Double) {
        let (offsetX, offsetY) = offsets(of: drawing)
        try options.checkRange(drawing, offsetX: offsetX, offsetY: offsetY)
        return (offsetX, offsetY)
    }

    /// The centring offsets of `drawing`: `(referenceSide - max) / 2` per axis.
    private func offsets(of drawing: Drawing) -> (Double, Double) {
        let (maxX, maxY) = maximum(of: drawing)
        return ((options.referenceSide - maxX) / 2, (options.referenceSide - maxY) / 2)
    }

    /// Clears the surface to the background and strokes `drawing` shifted by `offsets`. The
    /// background is written straight into the surface's pixels (the bytes a `SOURCE` paint of it
    /// leaves); source and operator stay as `init` set them.
    private func draw(_ drawing: Drawing, offsets: (x: Double, y: Double)) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        cairo_image_surface_get_data(surface)!.update(repeating: backgroundByte, count: stride * options.side)
        cairo_surface_mark_dirty(surface)
        for stroke in drawing.strokes where stroke.count > 0 {
            cairo_move_to(context, stroke.x[0] + offsets.x, stroke.y[0] + offsets.y)
            for i in 0..<stroke.count {
                cairo_line_to(context, stroke.x[i] + offsets.x, stroke.y[i] + offsets.y)
            }
            cairo_stroke(context)
        }
    }

    /// Per-axis maximum over all points (0 for an empty drawing, as Google's min is 0 by construction).
    private func maximum(of drawing: Drawing) -> (Double, Double) {
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for stroke in drawing.strokes {
            for value in stroke.x where value > maxX { maxX = value }
            for value in stroke.y where value > maxY { maxY = value }
        }
        return (maxX.isFinite ? maxX : 0, maxY.isFinite ? maxY : 0)
    }

    /// The surface's rows (A8: one byte a pixel, rows `stride` bytes apart) into `buffer`, packed.
    private func copyRows(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        cairo_surface_flush(surface)
        let side = options.side
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        let output = UnsafeMutableRawPointer(buffer.baseAddress!)
        if stride == side {
            output.copyMemory(from: data, byteCount: side * side)
            return
        }
        for row in 0..<side { (output + row * side).copyMemory(from: data + row * stride, byteCount: side) }
    }
}
