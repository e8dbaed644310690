import SketchCore
import SketchRaster
import Testing

@Suite struct GoogleBitmapRendererTests {
    static let categories = ["apple", "bicycle", "bowtie", "cat", "diamond", "eye", "fish", "lollipop", "rainbow"]

    @Test("rows 0-24 of all 9 shared classes match Google's numpy_bitmap bytes exactly (225 drawings)")
    func matchesOfficialBitmapsByteForByte() throws {
        let renderer = GoogleBitmapRenderer()
        var mismatches: [String] = []
        var compared = 0
        for category in Self.categories {
            let drawings = try SharedData.simplifiedDrawings(category, limit: 25)
            let official = try SharedData.officialBitmaps(category, limit: 25)
            for (row, drawing) in drawings.enumerated() {
                compared += 1
                if try renderer.render(drawing) != official[row] { mismatches.append("\(category)#\(row)") }
            }
        }
        #expect(compared == 225)
        #expect(mismatches.isEmpty, "differing rows: \(mismatches)")
    }

    @Test("an empty drawing renders as an all-background image")
    func emptyDrawingIsBackground() throws {
        let black = try StrokeRenderer(options: .googleBitmap).render(Drawing(strokes: []))
        #expect(black == [UInt8](repeating: 0, count: 784))
        var options = StrokeRenderOptions.googleBitmap
        options.polarity = .blackOnWhite
        let white = try StrokeRenderer(options: options).render(Drawing(strokes: []))
        #expect(white == [UInt8](repeating: 255, count: 784))
    }

    @Test("a single point draws a round dot centred in the frame")
    func singlePointDrawsCentredDot() throws {
        let options = StrokeRenderOptions(side: 64)
        let image = try StrokeRenderer(options: options).renderImage(Drawing(strokes: [Stroke(x: [0], y: [0])]))
        // max = 0 so the point is shifted to (128, 128): the centre of the padded frame.
        #expect(image[32, 32] == 255 && image[31, 31] == 255)
        #expect(image[0, 0] == 0 && image[63, 63] == 0)
    }

    @Test("black-on-white is the exact inverse of white-on-black for the same drawing")
    func polaritiesAreInverse() throws {
        let drawing = try SharedData.simplifiedDrawings("cat", limit: 1)[0]
        var options = StrokeRenderOptions(side: 256, lineWidth: 6, padding: 8)
        let white = try StrokeRenderer(options: options).render(drawing)
        options.polarity = .blackOnWhite
        let black = try StrokeRenderer(options: options).render(drawing)
        #expect(zip(white, black).allSatisfy { $0 == 255 - $1 })
        #expect(white.contains(255) && white.contains(0))
    }

    @Test("a point that cairo's fixed point would wrap once placed is refused with the renderer's range, before drawing")
    func aPointBeyondTheRenderersRangeIsRefused() throws {
        // At side 8192 (26.9 pixels per unit) the first point lands near -8.1e6 device units once centred.
        let drawing = Drawing(strokes: [Stroke(x: [-200_000, 200_000], y: [0, 0])])
        #expect(throws: DrawingLimitError.self) { try StrokeRenderer(options: StrokeRenderOptions(side: 8192)).render(drawing) }
        do {
            _ = try StrokeRenderer(options: StrokeRenderOptions(side: 8192)).render(drawing)
        } catch {
            #expect(error.kind == .beyondRenderRange)
        }
        let nan = Drawing(strokes: [Stroke(x: [.nan], y: [0])])
        #expect(throws: DrawingLimitError.self) { try GoogleBitmapRenderer().render(nan) }
        #expect(throws: DrawingLimitError.self) {
            try TimeChannelRenderer(options: StrokeRenderOptions(side: 8192), channels: [.order]).render(drawing)
        }
    }
}
