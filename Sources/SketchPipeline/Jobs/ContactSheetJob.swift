import SketchFormats
import SketchIO
import SketchRaster

/// `sketchprep contact-sheet`: up to `limit` sketches from `inputs` (``ContactSheetInputs``) drawn
/// as a labelled grid (``ContactSheet``) and written atomically as one PNG.
package struct ContactSheetJob {
    /// Drawing files and directories, `.npy` arrays, dataset directories, PNG files and directories.
    package var inputs: [String]
    /// The PNG file.
    package var output: String
    /// Most sketches to draw.
    package var limit: Int
    /// Cells per row.
    package var columns: Int
    /// Side of each cell's picture, in pixels.
    package var cell: Int

    /// What a run drew.
    package struct Outcome {
        /// Sketches drawn.
        package var sketches: Int
        /// The sheet's size in pixels.
        package var width: Int
        package var height: Int
    }

    /// Checks the settings; throws `PipelineError` saying which to change when `limit`, `columns`
    /// or `cell` is too small, or when the sheet would exceed ``RGBCanvas/maximumSide`` pixels a side.
    package init(inputs: [String], output: String, limit: Int, columns: Int, cell: Int) throws(PipelineError) {
        guard limit > 0, columns > 0, cell > 8 else { throw PipelineError(.configuration, "--limit and --columns must be > 0, --cell > 8") }
        // Divisions, not products, so that huge values cannot overflow.
        let tooLarge = PipelineError(
            .configuration, "the sheet would exceed \(RGBCanvas.maximumSide) pixels; lower --limit, --columns or --cell")
        guard columns <= RGBCanvas.maximumSide / cell else { throw tooLarge }
        let rows = limit / columns + (limit % columns == 0 ? 0 : 1)
        let rowHeight = cell + ContactSheet(columns: columns, cellSide: cell).labelHeight
        guard rows <= RGBCanvas.maximumSide / rowHeight else { throw tooLarge }
        self.inputs = inputs
        self.output = output
        self.limit = limit
        self.columns = columns
        self.cell = cell
    }

    /// Checks the paths, then reads up to `limit` sketches; the inputs' warnings are in the result.
    package func load() throws -> ContactSheetInputs {
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        try paths.verify()
        return try ContactSheetInputs(inputs, limit: limit)
    }

    /// Draws what `load()` read and writes the PNG; throws `PipelineError` when no sketch could be read.
    package func draw(_ loaded: ContactSheetInputs) throws -> Outcome {
        let items = loaded.items
        guard !items.isEmpty else {
            throw PipelineError(
                .input,
                "no sketch could be read from \(inputs.joined(separator: " ")); contact-sheet draws \(ContactSheetInputs.drawableKinds)")
        }
        let sheet = ContactSheet(columns: min(columns, items.count), cellSide: cell).render(items)
        try OutputTarget.createParentDirectory(of: output)
        try writeAtomically(try PNGEncoder.encodeRGB(sheet.pixels, width: sheet.width, height: sheet.height), to: output)
        return Outcome(sketches: items.count, width: sheet.width, height: sheet.height)
    }
}
