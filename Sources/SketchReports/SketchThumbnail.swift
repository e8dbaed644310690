import Foundation
import SketchCore
import SketchFormats

/// Small pictures of model inputs for the HTML report: stroke tensors become inline SVG polylines,
/// rasters become inline PNG data URIs. Both are self-contained HTML fragments.
package enum SketchThumbnail {
    /// An HTML fragment showing one example's model input of per-example `shape`, `size` pixels wide.
    /// Inputs shaped (steps, 3) are stroke deltas (docs/domain.md §3); anything else is a raster whose last two
    /// dimensions are height and width with values in [0, 1].
    package static func html(input: ArraySlice<Float>, shape: [Int], size: Int = 96) -> String {
        if shape.count == 2, shape[1] == 3 { return strokeSVG(deltas: input, size: size) }
        guard shape.count >= 2 else { return "" }
        return rasterImage(values: input, width: shape[shape.count - 1], height: shape[shape.count - 2], size: size)
    }

    /// Rebuilds the drawing from (dx, dy, end-of-stroke) rows and draws it as SVG polylines.
    /// Row k moves from point k to point k+1; a set flag ends the stroke at point k+1. Zero padding
    /// rows add zero-length moves and so draw nothing.
    package static func strokeSVG(deltas: ArraySlice<Float>, size: Int) -> String {
        var strokes: [[(Double, Double)]] = [[(0, 0)]]
        var x = 0.0
        var y = 0.0
        var row = deltas.startIndex
        while row + 2 < deltas.endIndex {
            x += Double(deltas[row])
            y += Double(deltas[row + 1])
            strokes[strokes.count - 1].append((x, y))
            if deltas[row + 2] > 0.5 { strokes.append([]) }
            row += 3
        }
        let points = strokes.joined()
        let minX = points.map(\.0).min() ?? 0
        let maxX = points.map(\.0).max() ?? 1
        let minY = points.map(\.1).min() ?? 0
        let maxY = points.map(\.1).max() ?? 1
        let extent = max(maxX - minX, maxY - minY, 1e-9)
        let margin = Double(size) * 0.06
        let scale = (Double(size) - 2 * margin) / extent
        let lines = strokes.filter { $0.count > 1 }.map { stroke in
            let coordinates = stroke.map { point in
                String(format: "%.1f,%.1f", margin + (point.0 - minX) * scale, margin + (point.1 - minY) * scale)
            }.joined(separator: " ")
            return "<polyline points=\"\(coordinates)\"/>"
        }.joined()
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 \(size) \(size)\">"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
            + "<g fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
            + lines + "</g></svg>"
    }

    /// Encodes a [0, 1] raster as an inline PNG `<img>` (nearest-neighbour scaled by the browser);
    /// values outside [0, 1] are clamped and NaN draws as 0.
    package static func rasterImage(values: ArraySlice<Float>, width: Int, height: Int, size: Int) -> String {
        guard width > 0, height > 0, values.count >= width * height else { return "" }
        // Clamped to [0, 1] as floats, so NaN, infinities or huge values in a shard cannot trap.
        let pixels = values.suffix(width * height).map { value in
            value.isNaN ? 0 : UInt8((Swift.min(Swift.max(value, 0), 1) * 255).rounded())
        }
        guard let png = try? PNGEncoder.encode(GrayImage(width: width, height: height, pixels: pixels)) else { return "" }
        return "<img width=\"\(size)\" height=\"\(size)\" style=\"image-rendering:pixelated\" src=\"\(pngDataURI(png))\" alt=\"\"/>"
    }

    /// `png` as a `data:image/png;base64,…` URI, for an `<img>` of a self-contained page.
    package static func pngDataURI(_ png: [UInt8]) -> String {
        "data:image/png;base64," + Data(png).base64EncodedString()
    }
}
