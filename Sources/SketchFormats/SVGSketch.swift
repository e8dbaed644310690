import CCairo
import Foundation
import SketchCore
import SketchIO

/// A vector sketch read from an SVG file (TU-Berlin's `sketches_svg`, Sketchy, other tools), as
/// a raw drawing: every subpath (`M`) of every `<path>`, every `<line>`, `<polyline>` and
/// `<polygon>` is one stroke, in document order, in the user space of the root element (each
/// element's `transform` and its ancestors' applied; `viewBox`, `width` and `height` are not).
/// Lines keep their end points; curves and arcs are flattened by cairo
/// (`cairo_copy_path_flat`) at `flatteningTolerance` user units, the end point of every segment
/// kept exactly (cairo's interior points are on its 1/256 fixed-point grid). Elements that are
/// not drawn (`defs`, `symbol`, `clipPath`, `mask`, `marker`, `pattern`, `style`, `script`,
/// `title`, `desc`, `metadata`, `text`, `foreignObject`) and shapes other than those four
/// (`rect`, `circle`, `ellipse`, `use`, `image`) are skipped.
///
/// Each point gets the time `t` = its index in the drawing in milliseconds (0, 1, 2, …), so the
/// record is a raw drawing wherever it goes (Google's simplification applies; an SVG sketch is
/// never taken for a simplified one by its coordinate range). A file over one of the caps below
/// (`docs/limits.md`) or not well-formed is refused with a `FormatError` naming the cap or the
/// byte; `SVGXMLScanner` refuses entity declarations and expands nothing.
package enum SVGSketch {
    /// Largest SVG file read (read whole).
    package static let maximumFileBytes = 16 << 20
    /// Most path segments (after `A`/`Q` are turned into cubics) in one file.
    package static let maximumSegments = 200_000
    /// Largest coordinate magnitude after the transforms, of every point handed to cairo (end and
    /// control points alike): within `RenderRange.maximumDeviceCoordinate`, as the flattener draws
    /// at the identity transform.
    package static let maximumCoordinate = 1e6
    /// cairo's flattening tolerance, in user units of the root element.
    package static let flatteningTolerance = 0.1

    /// The drawing of the SVG bytes `bytes`.
    package static func drawing(of bytes: [UInt8]) throws(FormatError) -> Drawing {
        guard bytes.count <= maximumFileBytes else { throw FormatError(.record, "SVG larger than \(maximumFileBytes) bytes") }
        var builder = StrokeBuilder()
        var transforms: [SVGAffine] = [.identity]
        var skippedDepth: Int?
        var sawSVG = false
        try SVGXMLScanner.scan(
            bytes,
            onStart: { name, attributes, depth throws(FormatError) in
                if depth == 1 {
                    guard name == "svg" else { throw FormatError(.record, "the root element is <\(name)>, not <svg>") }
                    sawSVG = true
                }
                var transform = transforms.last!
                if let text = attributes["transform"] { transform = transform.then(try SVGTransformList.parse(text)) }
                transforms.append(transform)
                guard skippedDepth == nil else { return }
                if notDrawn.contains(name) {
                    skippedDepth = depth
                    return
                }
                try builder.add(element: name, attributes: attributes, transform: transform)
            },
            onEnd: { _ throws(FormatError) in
                if skippedDepth == transforms.count - 1 { skippedDepth = nil }
                transforms.removeLast()
            })
        guard sawSVG else { throw FormatError(.record, "no <svg> element") }
        guard !builder.strokes.isEmpty else { throw FormatError(.record, "the SVG draws no path, line, polyline or polygon") }
        return Drawing(strokes: indexTimes(builder.strokes))
    }

    /// The record of the SVG file at `path`: `word` (the parent directory's name unless given),
    /// key_id `<parent directory>/<file name>` (the path relative to a TU-Berlin or Sketchy
    /// class-per-directory root), empty country and timestamp, `recognized` true.
    package static func record(path: String, word: String?) throws(FormatError) -> SketchRecord {
        let bytes: [UInt8]
        do { bytes = try InputFile.readAll(path, maximumBytes: maximumFileBytes) } catch {
            throw FormatError(.input, "cannot read \(path): \(error.reason)")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let parent = parts.count >= 2 ? parts[parts.count - 2] : "."
        let key = "\(parent)/\(parts.last ?? path)"
        return SketchRecord(
            word: word ?? parent, countryCode: "", timestamp: "", recognized: true, keyID: key,
            drawing: try drawing(of: bytes))
    }

    /// `strokes` with `t` set to each point's index in the drawing.
    package static func indexTimes(_ strokes: [Stroke]) -> [Stroke] {
        var next = 0.0
        return strokes.map { stroke in
            let times = (0..<stroke.count).map { next + Double($0) }
            next += Double(stroke.count)
            return Stroke(x: stroke.x, y: stroke.y, t: times)
        }
    }

    private static let notDrawn: Set<String> = [
        "defs", "symbol", "clipPath", "mask", "marker", "pattern", "style", "script",
        "title", "desc", "metadata", "text", "foreignObject",
    ]

    /// Collects strokes, flattening curves with one cairo context.
    private struct StrokeBuilder {
        var strokes: [Stroke] = []
        private var points = 0
        private var segments = 0
        private var xs: [Double] = []
        private var ys: [Double] = []
        private let flattener = CairoFlattener()

        mutating func add(element: String, attributes: [String: String], transform: SVGAffine) throws(FormatError) {
            switch element {
            case "path":
                guard let data = attributes["d"] else { return }
                let pieces = try SVGPathData.segments(of: data, maximumSegments: maximumSegments - segments)
                segments += pieces.count
                for piece in pieces { try add(piece, transform) }
            case "line":
                let values = try ["x1", "y1", "x2", "y2"].map { key throws(FormatError) in try Self.length(attributes[key], key) }
                try add(.move(SVGPoint(x: values[0], y: values[1])), transform)
                try add(.line(SVGPoint(x: values[2], y: values[3])), transform)
            case "polyline", "polygon":
                guard let values = SVGNumbers.list((attributes["points"] ?? "").utf8), values.count >= 2 else {
                    throw FormatError(.record, "<\(element)> points are not a list of coordinate pairs")
                }
                let corners = stride(from: 0, to: values.count - 1, by: 2).map { SVGPoint(x: values[$0], y: values[$0 + 1]) }
                try add(.move(corners[0]), transform)
                for corner in corners.dropFirst() + (element == "polygon" ? [corners[0]] : []) { try add(.line(corner), transform) }
            default:
                return
            }
            try finishStroke()
        }

        /// A length attribute: a number, optionally in `px`; absent is 0.
        private static func length(_ text: String?, _ key: String) throws(FormatError) -> Double {
            guard let text else { return 0 }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let number = trimmed.hasSuffix("px") ? String(trimmed.dropLast(2)) : trimmed
            guard let values = SVGNumbers.list(number.utf8), values.count == 1 else {
                throw FormatError(.record, "\(key)=\"\(text.prefix(40))\" is not a number")
            }
            return values[0]
        }

        private mutating func add(_ segment: SVGSegment, _ transform: SVGAffine) throws(FormatError) {
            switch segment {
            case .move(let point):
                try finishStroke()
                try append(transform.apply(point))
            case .line(let point):
                try append(transform.apply(point))
            case let .cubic(c1, c2, end):
                guard let last = xs.indices.last else { return }
                let start = SVGPoint(x: xs[last], y: ys[last])
                let target = try Self.checked(transform.apply(end))
                let controls = (try Self.checked(transform.apply(c1)), try Self.checked(transform.apply(c2)))
                for point in flattener.interior(start, controls.0, controls.1, target) { try append(point) }
                try append(target)
            }
        }

        /// `point` (after the transforms) when it is finite and within ±`maximumCoordinate`: the
        /// one check of every point, end or control, before cairo or the drawing gets it.
        private static func checked(_ point: SVGPoint) throws(FormatError) -> SVGPoint {
            guard abs(point.x) <= maximumCoordinate, abs(point.y) <= maximumCoordinate else {
                throw FormatError(
                    .record,
                    "\(RenderRange.outOfRange): a point at (\(point.x), \(point.y)) lies beyond ±\(Int(maximumCoordinate)) after the transforms"
                )
            }
            return point
        }

        private mutating func append(_ point: SVGPoint) throws(FormatError) {
            let point = try Self.checked(point)
            guard points < DrawingLimits.maximumPoints else {
                throw FormatError(
                    .record, "\(DrawingLimits.tooManyPoints): more than \(DrawingLimits.maximumPoints) points once curves are flattened")
            }
            points += 1
            xs.append(point.x)
            ys.append(point.y)
        }

        mutating func finishStroke() throws(FormatError) {
            guard !xs.isEmpty else { return }
            guard strokes.count < DrawingLimits.maximumStrokes else {
                throw FormatError(.record, "\(DrawingLimits.tooManyStrokes): more than \(DrawingLimits.maximumStrokes) strokes")
            }
            strokes.append(Stroke(x: xs, y: ys))
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
        }
    }
}

/// cairo's curve flattening (`cairo_copy_path_flat` at `SVGSketch.flatteningTolerance`) on a
/// 1×1 surface with the identity transform, so tolerance and points are in the caller's units.
private final class CairoFlattener {
    private let surface: OpaquePointer
    private let context: OpaquePointer

    init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        context = cairo_create(surface)
        cairo_set_tolerance(context, SVGSketch.flatteningTolerance)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The points cairo puts between `start` and `end` on the cubic Bézier `start c1 c2 end`.
    func interior(_ start: SVGPoint, _ c1: SVGPoint, _ c2: SVGPoint, _ end: SVGPoint) -> [SVGPoint] {
        cairo_new_path(context)
        cairo_move_to(context, start.x, start.y)
        cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, end.x, end.y)
        guard let path = cairo_copy_path_flat(context) else { return [] }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return [] }
        var points: [SVGPoint] = []
        var index = 0
        while index < Int(path.pointee.num_data) {
            let header = data[index].header
            if header.type == CAIRO_PATH_LINE_TO, header.length >= 2 {
                points.append(SVGPoint(x: data[index + 1].point.x, y: data[index + 1].point.y))
            }
            index += max(1, Int(header.length))
        }
        if !points.isEmpty { points.removeLast() }  // cairo's copy of `end`, on its fixed-point grid
        return points
    }
}
