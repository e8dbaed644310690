import Foundation
import SketchReports
import Testing

@Suite("Sketch thumbnails")
struct SketchThumbnailTests {
    @Test func strokeDeltasBecomeOnePolylinePerStroke() {
        // Front padding, then stroke 1: (0,0)→(10,0)→(10,10) ends; stroke 2: →(0,10)→(0,0).
        let rows: [Float] = [0, 0, 0, 10, 0, 0, 0, 10, 1, -10, 0, 0, 0, -10, 0]
        let svg = SketchThumbnail.html(input: rows[...], shape: [5, 3], size: 50)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(svg.contains("width=\"50\""))
    }

    @Test func rastersBecomeInlinePNGImages() {
        let pixels = [Float](repeating: 0.5, count: 28 * 28)
        let html = SketchThumbnail.html(input: pixels[...], shape: [1, 28, 28], size: 56)
        #expect(html.hasPrefix("<img width=\"56\" height=\"56\""))
        #expect(html.contains("src=\"data:image/png;base64,iVBORw0KGgo"))
    }

    @Test func rasterValuesOutsideTheUnitRangeAreClampedNotTrappedOn() {
        let pixels: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0.5]
        let odd = SketchThumbnail.rasterImage(values: pixels[...], width: 3, height: 2, size: 6)
        let clamped: [Float] = [0, 1, 0, 1, 0, 0.5]
        #expect(odd == SketchThumbnail.rasterImage(values: clamped[...], width: 3, height: 2, size: 6))
        #expect(odd.hasPrefix("<img"))
    }
}
