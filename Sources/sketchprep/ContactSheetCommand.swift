import ArgumentParser
import SketchPipeline

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
        do { _ = try job() } catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let job = try job()
        let loaded = try job.load()
        for warning in loaded.warnings { printToStandardError("contact-sheet: \(warning)") }
        let outcome = try job.draw(loaded)
        OutputPaths.printSummary(
            "contact-sheet: \(outcome.sketches) sketches → \(output) (\(outcome.width)×\(outcome.height))", output: output)
    }

    private func job() throws(PipelineError) -> ContactSheetJob {
        try ContactSheetJob(inputs: inputs, output: output, limit: limit, columns: columns, cell: cell)
    }
}
