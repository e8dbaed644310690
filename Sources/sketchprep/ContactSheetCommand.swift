import ArgumentParser
import SketchFormats
import SketchDataset
import SketchPipeline
import SketchRaster

/// `sketchprep contact-sheet`: a PNG grid of labelled sketches for looking at data.
struct ContactSheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Draw a labelled grid of sketches (NDJSON drawings, NPY rasters or shards, PNG images) into one PNG.",
        discussion: """
            Inputs, in order, until --limit sketches: Quick, Draw! NDJSON (files, directories, .gz; \
            labelled with the word), NPY raster arrays (N, H, W) or (N, S*S) (a shard's labels come \
            from its .y.npy and the manifest's class map), a shard directory with manifest.json, or \
            PNG files / directories of <class>/*.png (labelled with the directory name).

            Examples:
              sketchprep contact-sheet simplified/cat.ndjson -o cat.png --limit 100 --columns 10
              sketchprep contact-sheet out/rnn -o shards.png
            """)

    @Argument(help: "Inputs: drawing files/directories (NDJSON, .bin, stroke-3 .npz), .npy arrays, shard directories, .png files/directories.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output PNG file (written atomically).")
    var output: String

    @Option(help: "Most sketches to draw.")
    var limit = 100

    @Option(help: "Cells per row.")
    var columns = 10

    @Option(help: "Side of each cell's picture, in pixels (at least 9).")
    var cell = 96

    func validate() throws {
        guard limit > 0, columns > 0, cell > 8 else { throw ValidationError("--limit and --columns must be > 0, --cell > 8") }
        // Divisions, not products, so that huge values cannot overflow.
        let tooLarge = ValidationError("the sheet would exceed \(RGBCanvas.maximumSide) pixels; lower --limit, --columns or --cell")
        guard columns <= RGBCanvas.maximumSide / cell else { throw tooLarge }
        let rows = limit / columns + (limit % columns == 0 ? 0 : 1)
        let rowHeight = cell + ContactSheet(columns: columns, cellSide: cell).labelHeight
        guard rows <= RGBCanvas.maximumSide / rowHeight else { throw tooLarge }
    }

    func run() throws {
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        try paths.verify()
        let items = try ContactSheetInputs(inputs, limit: limit).items
        let sheet = ContactSheet(columns: min(columns, max(items.count, 1)), cellSide: cell).render(items)
        try OutputPaths.createParentDirectory(of: output)
        try writeAtomically(try PNGEncoder.encodeRGB(sheet.pixels, width: sheet.width, height: sheet.height), to: output)
        print("contact-sheet: \(items.count) sketches → \(output) (\(sheet.width)×\(sheet.height))")
    }
}
