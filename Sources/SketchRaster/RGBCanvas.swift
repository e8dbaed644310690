import CCairo
import SketchCore

/// A white cairo RGB24 canvas for diagnostic pictures: sketches fitted into boxes, gray rasters,
/// short text labels (cairo's "toy" text API, default sans font).
package final class RGBCanvas {
    /// Largest side cairo image surfaces support.
    package static let maximumSide = 32767
    /// Canvas width in pixels.
    package let width: Int
    /// Canvas height in pixels.
    package let height: Int
    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// Creates a canvas filled with white.
    package init(width: Int, height: Int) {
        precondition(
            (1...Self.maximumSide).contains(width) && (1...Self.maximumSide).contains(height),
            "canvas sides must be in 1...\(Self.maximumSide)")
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cairo could not allocate the canvas")
        context = cairo_create(surface)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Strokes `drawing` into `box`, mapping the drawing-space rectangle `frame` onto it
    /// (uniform scale, centred). Use `SketchFrame.fitting` to frame one or several drawings.
    package func stroke(_ drawing: Drawing, frame: SketchFrame, in box: CanvasBox, color: RGBColor, lineWidth: Double) {
        let scale = min(box.width / frame.width, box.height / frame.height)
        let originX = box.x + (box.width - frame.width * scale) / 2 - frame.minX * scale
        let originY = box.y + (box.height - frame.height * scale) / 2 - frame.minY * scale
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
        cairo_set_line_width(context, lineWidth)
        for stroke in drawing.strokes where stroke.count > 0 {
            cairo_move_to(context, originX + stroke.x[0] * scale, originY + stroke.y[0] * scale)
            for i in 0..<stroke.count {
                cairo_line_to(context, originX + stroke.x[i] * scale, originY + stroke.y[i] * scale)
            }
            cairo_stroke(context)
        }
    }

    /// Paints a gray raster scaled uniformly into `box` (nearest-neighbour, so small bitmaps stay crisp).
    package func paint(_ image: GrayImage, in box: CanvasBox) {
        guard image.width > 0, image.height > 0 else { return }
        let source = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.width), Int32(image.height))
        defer { cairo_surface_destroy(source) }
        cairo_surface_flush(source)
        let stride = Int(cairo_image_surface_get_stride(source))
        if let data = cairo_image_surface_get_data(source) {
            for row in 0..<image.height {
                let words = UnsafeMutableRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                for column in 0..<image.width {
                    let value = UInt32(image.pixels[row * image.width + column])
                    words[column] = 0xFF00_0000 | value << 16 | value << 8 | value
                }
            }
        }
        cairo_surface_mark_dirty(source)
        let scale = min(box.width / Double(image.width), box.height / Double(image.height))
        cairo_save(context)
        cairo_translate(
            context, box.x + (box.width - Double(image.width) * scale) / 2,
            box.y + (box.height - Double(image.height) * scale) / 2)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_NEAREST)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Draws a one-pixel rectangle outline around `box`.
    package func outline(_ box: CanvasBox, color: RGBColor) {
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
        cairo_set_line_width(context, 1)
        cairo_rectangle(context, box.x + 0.5, box.y + 0.5, box.width - 1, box.height - 1)
        cairo_stroke(context)
    }

    /// Writes `text` with its baseline-left at (`x`, `y`), shortened with "…" to fit `maxWidth`.
    package func text(_ text: String, x: Double, y: Double, size: Double, maxWidth: Double, color: RGBColor) {
        cairo_select_font_face(context, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
        var shown = text
        while !shown.isEmpty, advance(of: shown) > maxWidth {
            shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…"
            if shown == "…" { break }
        }
        cairo_move_to(context, x, y)
        cairo_show_text(context, shown)
    }

    /// The canvas pixels as RGB bytes.
    package func rgbImage() -> RGBImage {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        if let data = cairo_image_surface_get_data(surface) {
            for row in 0..<height {
                let words = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
                for column in 0..<width {
                    let word = words[column]
                    let base = (row * width + column) * 3
                    pixels[base] = UInt8(truncatingIfNeeded: word >> 16)
                    pixels[base + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    pixels[base + 2] = UInt8(truncatingIfNeeded: word)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private func advance(of text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }
}

/// A rectangle on a canvas, in pixels.
package struct CanvasBox: Equatable, Sendable {
    /// Left edge, top edge, width and height in pixels.
    package var x, y, width, height: Double

    /// Creates a box.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The box shrunk by `margin` on every side.
    package func inset(by margin: Double) -> CanvasBox {
        CanvasBox(x: x + margin, y: y + margin, width: max(1, width - 2 * margin), height: max(1, height - 2 * margin))
    }
}

/// The drawing-space rectangle shown in a canvas box.
package struct SketchFrame: Equatable, Sendable {
    /// Bounds in drawing coordinates.
    package var minX, minY, width, height: Double

    /// The bounding box of all points of `drawings` (at least 1×1, so single points and empty
    /// drawings still map to a finite scale).
    package static func fitting(_ drawings: [Drawing]) -> SketchFrame {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for stroke in drawings.flatMap(\.strokes) {
            for value in stroke.x {
                minX = min(minX, value)
                maxX = max(maxX, value)
            }
            for value in stroke.y {
                minY = min(minY, value)
                maxY = max(maxY, value)
            }
        }
        guard minX.isFinite, minY.isFinite else { return SketchFrame(minX: 0, minY: 0, width: 1, height: 1) }
        let side = max(1, maxX - minX, maxY - minY)
        return SketchFrame(
            minX: minX - (side - (maxX - minX)) / 2, minY: minY - (side - (maxY - minY)) / 2,
            width: side, height: side)
    }
}
