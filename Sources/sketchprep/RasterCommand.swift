import ArgumentParser
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline
import SketchRaster

/// `sketchprep raster`: PNG images (e.g. TU-Berlin) → gray, resampled, one NPY array.
struct RasterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Decode PNG images to gray and resample them to SIZE×SIZE into one NPY array.",
        discussion: """
            Any PNG is accepted (1–16-bit gray, gray+alpha, RGB, RGBA, palette, interlaced); alpha is \
            composited over white and colour converted with BT.601 luma (Pillow's "L"). Images are \
            resampled to SIZE×SIZE with Pillow's BOX filter (resize(BOX)), non-square ones centred on white (aspect \
            kept). Output: uint8 (N, SIZE, SIZE) in input order, or float32 pixel/255 with --float32 \
            (white background = 1.0, the book's CNN input); OUTPUT.keys.csv (path) names each row's file. Unreadable or corrupt files are listed in \
            the quarantine file and reported; they never stop the run.

            Examples:
              sketchprep raster tu-berlin/png -o tu-berlin.npy --size 256
              sketchprep raster tu-berlin/png -o try.npy --limit 10 --report-json try.json
            """
    )

    @Argument(help: "PNG files, or directories searched recursively for *.png (sorted by path).")
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help:
            "Output .npy file (written atomically), with OUTPUT.keys.csv beside it naming each row's file; - writes the .npy to stdout when complete."
    )
    var output: String

    @Option(help: "Output side in pixels (256 is the book's TU-Berlin CNN input).")
    var size = 256

    @Flag(help: "Keep the images' own size instead of resampling (all inputs must share it).")
    var keepSize = false

    @Flag(help: "Write float32 values in [0, 1] (pixel / 255) instead of uint8.")
    var float32 = false

    @Option(
        help:
            "Where the paths of rejected files go, one per line, created only when a file is rejected. (default: OUTPUT with .npy replaced by .rejected.txt; none with -o -)"
    )
    var quarantine: String?

    func validate() throws {
        guard (1...8192).contains(size) else { throw ValidationError("--size must be between 1 and 8192") }
    }

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Parallelism")
    var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup var report: ReportJSONOption

    func run() throws {
        let quarantinePath = try CommandOutputs.checkFile(
            inputs: inputs, output: output, of: .imageArray, quarantine: quarantine, report: report.path)
        let listing = try ImageInputs.expand(inputs, limitPerInput: limit.limit, threads: jobs.resolved)
        printWarnings(listing.skipped, tool: "raster")
        try OutputTarget.createParentDirectory(of: output)
        try OutputTarget.createParentDirectory(of: quarantinePath)
        let job = RasterJob(
            files: listing.files, rejectedSources: listing.rejected, outputPath: output,
            quarantinePath: quarantinePath, side: size, keepsSize: keepSize, float32: float32,
            showsProgress: quiet.showsProgress, jobs: jobs.resolved)
        let (tally, seconds) = try ReportJSONOption.timed { try job.run() }
        try report.write(
            command: "raster", counts: tally, inputs: listing.files, output: output, quarantine: quarantinePath,
            jobs: jobs.resolved, seconds: seconds)
        OutputPaths.printSummary("raster: \(tally) → \(OutputPaths.destination(output, tally))", output: output)
        try strictness.check(tally, command: "raster")
    }
}
