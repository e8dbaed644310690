import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline
import SketchRaster

/// `sketchprep contact-sheet`: a PNG grid of labelled sketches for looking at data.
struct ContactSheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Draw a labelled grid of sketches (drawings, stroke tensors, rasters, dataset directories, PNG images) into one PNG.",
        discussion: """
            Inputs, in order, until --limit sketches: drawings (Quick, Draw! NDJSON, .bin, stroke-3 .npz; \
            files, directories, .gz; labelled with the word), NPY arrays of stroke tensors (N, L, 3) \
            (decoded back into strokes, in normalised units) or rasters (N, H, W) or (N, S*S) (a shard's \
            labels come from its .y.npy and the manifest's class map), a dataset directory with \
            manifest.json (NPY shards or sketch-rnn .npz files), or PNG files / directories of \
            <class>/*.png (labelled with the directory name). TFRecord files and TFRecord and \
            WebDataset datasets are refused (exit 1); write the dataset as NPY to look at it. No sketch at all is an error too.

            Examples:
              sketchprep contact-sheet simplified/cat.ndjson -o cat.png --limit 100 --columns 10
              sketchprep contact-sheet out/rnn -o shards.png
            """)

    @Argument(
        help: "Inputs: drawing files/directories (NDJSON, .bin, stroke-3 .npz), .npy arrays, shard directories, .png files/directories.")
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
        let loaded = try ContactSheetInputs(inputs, limit: limit)
        for warning in loaded.warnings { printToStandardError("contact-sheet: \(warning)") }
        let items = loaded.items
        guard !items.isEmpty else {
            throw CommandError(
                "no sketch could be read from \(inputs.joined(separator: " ")); contact-sheet draws \(ContactSheetInputs.drawableKinds)")
        }
        let sheet = ContactSheet(columns: min(columns, max(items.count, 1)), cellSide: cell).render(items)
        try OutputTarget.createParentDirectory(of: output)
        try writeAtomically(try PNGEncoder.encodeRGB(sheet.pixels, width: sheet.width, height: sheet.height), to: output)
        OutputPaths.printSummary("contact-sheet: \(items.count) sketches → \(output) (\(sheet.width)×\(sheet.height))", output: output)
    }
}
