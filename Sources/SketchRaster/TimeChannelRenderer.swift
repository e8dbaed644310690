import CCairo
import SketchCore

/// What one channel of a time-encoding raster shows (`--channels`, `encode.channels`).
public enum TimeChannel: String, Sendable, CaseIterable {
    /// Stroke order: stroke `i` (from 0) is drawn at `(255 − 13 · min(i, 10)) / 255`, the grey
    /// ramp of the popular Kaggle kernels.
    case order
    /// Time within the drawing: the segment from point `k` is drawn at `(255 − 200 · τₖ) / 255`,
    /// `τₖ = (tₖ − t_min) / (t_max − t_min)` (0 when all times are equal); raw input only.
    case time
    /// Pen speed: the segment from point `k` to `k + 1` is drawn at `(55 + 200 · σₖ) / 255`,
    /// `σₖ = sₖ / max s`, `sₖ = |pₖ₊₁ − pₖ| / max(tₖ₊₁ − tₖ, 1 ms)` in the aligned and scaled
    /// coordinates (0 when the drawing never moves; a one-point stroke is 0); raw input only.
    case speed

    /// Whether the channel needs the strokes' times (raw input).
    public var needsTimes: Bool { self != .order }

    /// What a channel list must be, for messages: ``parsedList(_:)``'s rule.
    public static var listRule: String { "1 or 3 of: \(allCases.map(\.rawValue).joined(separator: ", ")), separated by commas" }

    /// The channels of a comma-separated list such as `order,time,speed` (`--channels`), or nil
    /// when a name is unknown or there are not 1 or 3 of them (``listRule``).
    public static func parsedList(_ text: String) -> [TimeChannel]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        let parsed = names.compactMap(TimeChannel.init(rawValue:))
        return parsed.count == names.count && (parsed.count == 1 || parsed.count == 3) ? parsed : nil
    }
}

/// Renders drawings as rasters whose 1 or 3 channels encode stroke order, time and pen speed
/// (`TimeChannel`), on the geometry of `StrokeRenderer` (side, line width, padding, centring;
/// always white ink on black, ink intensity being the channel's value): the background is painted
/// black, then every segment `pₖ → pₖ₊₁` of every stroke in drawing order is stroked on its own
/// with round caps (a one-point stroke as a dot), later segments over earlier ones, with operator
/// `SOURCE`: each channel of a pixel moves from its value toward the segment's grey in that
/// channel by the segment's coverage. One channel is drawn on an A8 surface (the alpha is the
/// grey); three are drawn at once on an RGB24 surface whose red, green and blue are the three
/// channels' greys, so each segment is stroked once: cairo blends each byte of an RGB24 pixel with
/// the arithmetic it uses for the one byte of an A8 pixel, so every channel is the one an A8
/// surface of its own gives (`Tests/python/test_time_rasters.py`). Raw drawings are drawn after
/// Google's align and scale steps only (`GoogleSimplifier.alignedAndScaled`, times kept, no
/// resampling); a drawing without times can be rendered with `order` alone. Output is
/// `side × side × channels` bytes, row-major, channels interleaved: numpy's `(H, W, C)`.
public final class TimeChannelRenderer {
    /// The channels, in output order.
    public let channels: [TimeChannel]
    /// The geometry (its polarity is not used).
    public let options: StrokeRenderOptions
    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// Creates a renderer; `channels` holds 1 or 3 channels.
    public init(options: StrokeRenderOptions, channels: [TimeChannel]) {
        precondition(channels.count == 1 || channels.count == 3, "a time raster has 1 or 3 channels")
        self.options = options
        self.channels = channels
        (surface, context) = StrokeRenderer.makeCanvas(options, format: channels.count == 1 ? CAIRO_FORMAT_A8 : CAIRO_FORMAT_RGB24)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The raster of `drawing`: raw (with times) or, for `order` alone, any drawing in 0–255
    /// units. Throws `DrawingLimitError` when a time channel meets a drawing without times, or
    /// for a drawing the alignment refuses.
    public func render(_ drawing: Drawing) throws(DrawingLimitError) -> [UInt8] {
        let hasTimes = drawing.strokes.allSatisfy { !$0.t.isEmpty }
        if let channel = channels.first(where: \.needsTimes), !hasTimes {
            throw DrawingLimitError(
                .missingTimes,
                "the \(channel.rawValue) channel needs raw drawings with times (t); this drawing has none (simplified input)")
        }
        let geometry = hasTimes ? try GoogleSimplifier.alignedAndScaled(drawing) : drawing
        let (offsetX, offsetY) = offsets(of: geometry)
        try options.checkRange(geometry, offsetX: offsetX, offsetY: offsetY)
        let values = channels.map { Self.values(of: geometry, $0) }
        draw(geometry, offsetX: offsetX, offsetY: offsetY, values: values)
        let pixels = options.side * options.side
        return [UInt8](unsafeUninitializedCapacity: pixels * channels.count) { buffer, count in
            copyPixels(into: buffer.baseAddress!)
            count = pixels * channels.count
        }
    }

    /// The surface's pixels to `target`, packed: A8, the gray byte of each pixel; RGB24 (a 32-bit
    /// word `0xXXRRGGBB` a pixel), red, green and blue, rows one after another.
    private func copyPixels(into target: UnsafeMutablePointer<UInt8>) {
        cairo_surface_flush(surface)
        let side = options.side
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        if channels.count == 1 {
            for row in 0..<side { UnsafeMutableRawPointer(target + row * side).copyMemory(from: data + row * stride, byteCount: side) }
            return
        }
        for row in 0..<side {
            let source = (data + row * stride).assumingMemoryBound(to: UInt32.self)
            let line = target + row * side * 3
            for column in 0..<side {
                let word = source[column]
                line[3 * column] = UInt8(truncatingIfNeeded: word >> 16)
                line[3 * column + 1] = UInt8(truncatingIfNeeded: word >> 8)
                line[3 * column + 2] = UInt8(truncatingIfNeeded: word)
            }
        }
    }

    /// Per stroke, the grey of each segment (of the point, for a one-point stroke).
    static func values(of drawing: Drawing, _ channel: TimeChannel) -> [[Double]] {
        switch channel {
        case .order:
            return drawing.strokes.enumerated().map { index, stroke in
                Array(repeating: (255 - 13 * Double(min(index, 10))) / 255, count: max(stroke.count - 1, 1))
            }
        case .time:
            let times = drawing.strokes.flatMap(\.t)
            let first = times.min() ?? 0
            let span = (times.max() ?? 0) - first
            return drawing.strokes.map { stroke in
                (0..<max(stroke.count - 1, 1)).map { (255 - 200 * (span > 0 ? (stroke.t[$0] - first) / span : 0)) / 255 }
            }
        case .speed:
            let speeds = drawing.strokes.map { stroke in
                stroke.count < 2
                    ? [0.0]
                    : (0..<(stroke.count - 1)).map { k in
                        let distance =
                            ((stroke.x[k + 1] - stroke.x[k]) * (stroke.x[k + 1] - stroke.x[k])
                            + (stroke.y[k + 1] - stroke.y[k]) * (stroke.y[k + 1] - stroke.y[k])).squareRoot()
                        return distance / max(stroke.t[k + 1] - stroke.t[k], 1)
                    }
            }
            let fastest = speeds.joined().max() ?? 0
            return speeds.map { $0.map { (55 + 200 * (fastest > 0 ? $0 / fastest : 0)) / 255 } }
        }
    }

    /// The centring offsets of `drawing`: `(referenceSide - max) / 2` per axis.
    private func offsets(of drawing: Drawing) -> (Double, Double) {
        let maxX = drawing.strokes.compactMap { $0.x.max() }.max() ?? 0
        let maxY = drawing.strokes.compactMap { $0.y.max() }.max() ?? 0
        return ((options.referenceSide - maxX) / 2, (options.referenceSide - maxY) / 2)
    }

    /// Paints the background black, then strokes every segment once in its greys (`values`: per
    /// channel, per stroke, per segment), with `SOURCE`: on A8 the alpha is the grey, on RGB24 the
    /// channels' greys are red, green and blue.
    private func draw(_ drawing: Drawing, offsetX: Double, offsetY: Double, values: [[[Double]]]) {
        cairo_set_source_rgba(context, 0, 0, 0, channels.count == 1 ? 0 : 1)
        cairo_paint(context)
        for (index, stroke) in drawing.strokes.enumerated() where stroke.count > 0 {
            for k in values[0][index].indices {
                let next = min(k + 1, stroke.count - 1)
                if channels.count == 1 {
                    cairo_set_source_rgba(context, 0, 0, 0, values[0][index][k])
                } else {
                    cairo_set_source_rgb(context, values[0][index][k], values[1][index][k], values[2][index][k])
                }
                cairo_move_to(context, stroke.x[k] + offsetX, stroke.y[k] + offsetY)
                cairo_line_to(context, stroke.x[next] + offsetX, stroke.y[next] + offsetY)
                cairo_stroke(context)
            }
        }
    }
}
