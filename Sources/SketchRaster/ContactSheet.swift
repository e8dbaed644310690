import SketchCore

/// A grid of labelled sketches (vector drawings or gray rasters) for eyeballing a dataset.
public struct ContactSheet {
    /// What one cell shows.
    public enum Content {
        /// A stroke drawing, fitted into the cell (black ink on white).
        case drawing(Drawing)
        /// A raster (e.g. a 28×28 bitmap or a 256×256 TU-Berlin image), scaled into the cell.
        case image(GrayImage)
    }

    /// One labelled cell.
    public struct Item {
        /// The sketch.
        public var content: Content
        /// Caption under the sketch (class name, index, …).
        public var label: String

        /// Creates an item.
        public init(content: Content, label: String) {
            self.content = content
            self.label = label
        }
    }

    /// Number of cells per row.
    public var columns: Int
    /// Side of the square sketch area of a cell, in pixels.
    public var cellSide: Int
    /// Height of the caption strip under each sketch, in pixels.
    public var labelHeight = 16

    /// Creates a layout with `columns` cells per row, each `cellSide` pixels square plus its caption.
    public init(columns: Int, cellSide: Int) {
        precondition(columns > 0 && cellSide > 8, "contact sheet needs columns > 0 and cells > 8 px")
        self.columns = columns
        self.cellSide = cellSide
    }

    /// Renders `items` row by row; the sheet has `ceil(items.count / columns)` rows (at least one).
    public func render(_ items: [Item]) -> RGBImage {
        let rows = max(1, (items.count + columns - 1) / columns)
        let cellHeight = cellSide + labelHeight
        let canvas = RGBCanvas(width: columns * cellSide, height: rows * cellHeight)
        for (index, item) in items.enumerated() {
            let cell = CanvasBox(
                x: Double(index % columns * cellSide), y: Double(index / columns * cellHeight),
                width: Double(cellSide), height: Double(cellSide))
            switch item.content {
            case .drawing(let drawing):
                canvas.stroke(
                    drawing, frame: .fitting([drawing]), in: cell.inset(by: 6), color: .black,
                    lineWidth: max(1, Double(cellSide) / 64))
            case .image(let image):
                canvas.paint(image, in: cell.inset(by: 2))
            }
            canvas.outline(
                CanvasBox(x: cell.x, y: cell.y, width: cell.width, height: Double(cellHeight)),
                color: RGBColor(red: 0.8, green: 0.8, blue: 0.8))
            canvas.text(
                item.label, x: cell.x + 3, y: cell.y + Double(cellHeight) - 4,
                size: Double(labelHeight) * 0.7, maxWidth: cell.width - 6, color: .labelGray)
        }
        return canvas.rgbImage()
    }
}
