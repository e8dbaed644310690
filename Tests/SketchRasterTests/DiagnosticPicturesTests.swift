import SketchCore
import SketchRaster
import Testing

@Suite struct DiagnosticPicturesTests {
    static let square = Drawing(strokes: [Stroke(x: [0, 100, 100, 0, 0], y: [0, 0, 100, 100, 0])])

    @Test("a contact sheet has one cell per item laid out in rows, each showing ink")
    func contactSheetGrid() {
        let sheet = ContactSheet(columns: 3, cellSide: 64)
        let items =
            (0..<4).map { ContactSheet.Item(content: .drawing(Self.square), label: "sq \($0)") }
            + [ContactSheet.Item(content: .image(GrayImage(width: 28, height: 28, filledWith: 0)), label: "black")]
        let image = sheet.render(items)
        #expect(image.width == 3 * 64 && image.height == 2 * (64 + sheet.labelHeight))
        // The fitted square's left edge crosses the middle row of cell (0,0) near x = 6.
        #expect((0..<12).contains { image[$0, 32].r < 160 })
        // The black raster (item 4 = row 1, column 1) fills its cell's centre.
        #expect(image[64 + 32, 80 + 32] == (0, 0, 0))
        // Cell (row 1, column 2) is empty: white.
        #expect(image[128 + 32, 80 + 32] == (255, 255, 255))
    }

    @Test("an overlay shows the reference in blue and ours in orange where they differ")
    func overlayColours() {
        let shifted = Drawing(strokes: [Stroke(x: [0, 100], y: [100, 100])])
        let reference = Drawing(strokes: [Stroke(x: [0, 100], y: [0, 0])])
        let image = OverlayRenderer(side: 128).render(ours: shifted, reference: reference, caption: "x")
        let topRow = (0..<128).map { image[64, $0] }
        #expect(topRow.contains { $0.b > 150 && $0.r < 100 }, "blue reference line present")
        #expect(topRow.contains { $0.r > 200 && $0.b < 120 }, "orange line of ours present")
    }
}
