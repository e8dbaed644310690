import ArgumentParser
import SketchCore
import SketchDataset
import SketchFormats
import SketchPipeline
import SketchRaster

/// `sketchprep bitmap`: Quick, Draw! NDJSON → Google-style bitmaps in one NPY array.
struct BitmapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bitmap",
        abstract: "Render Quick, Draw! drawings to bitmaps like Google's numpy_bitmap files.",
        discussion: """
            Writes uint8 (N, SIZE*SIZE) in input line order: with the defaults (28, line width 16, \
            padding 16, white on black) the rows are byte-identical to Google's numpy_bitmap files. \
            Raw drawings are first simplified with Google's steps (--input-format auto: a drawing with \
            a t array or a coordinate that is not an integer in 0–255 is raw). OUTPUT.keys.csv (key_id,word) \
            names each row. Bad lines are quarantined; the run ends with read = written + rejected. See docs/raster.md.

            Examples:
              sketchprep bitmap simplified/cat.ndjson --size 28 -o cat.npy
              sketchprep bitmap cat.bin -o try.npy --limit 100 --report-json try.json
            """)

    @Argument(help: "Drawing inputs: NDJSON, Google .bin or stroke-3 .npz files, directories, .gz, or - for stdin.")
    var inputs: [String]

    @Option(
        name: .shortAndLong,
        help:
            "Output .npy file (written atomically), with OUTPUT.keys.csv beside it naming each row; - writes the .npy to stdout when complete."
    )
    var output: String

    @OptionGroup(title: "Rendering")
    var raster: StrokeRasterOptionGroup

    @Option(
        help:
            "Channels that encode time, 1 or 3 of order, time, speed (e.g. order,time,speed): (N, size, size, C) uint8 from raw strokes aligned and scaled (docs/raster.md); time and speed need raw input. (default: Google's gray bitmaps)"
    )
    var channels: String?

    @Option(
        help:
            "File that receives rejected lines verbatim, created only when a line is rejected. (default: OUTPUT with .npy replaced by .rejected.ndjson; none with -o -)"
    )
    var quarantine: String?

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Parallelism")
    var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup var report: ReportJSONOption

    @OptionGroup(title: "Input format")
    var input: DrawingInputOptionGroup

    func validate() throws {
        _ = try timeChannels()
    }

    /// The `--channels` list (`TimeChannel.parsedList`).
    private func timeChannels() throws -> [TimeChannel] {
        guard let channels else { return [] }
        guard let parsed = TimeChannel.parsedList(channels) else { throw ValidationError("--channels takes \(TimeChannel.listRule)") }
        return parsed
    }

    func run() throws {
        let (reader, quarantinePath) = try NPYCommandSetup.prepare(
            inputs: inputs, format: input, output: output, quarantine: quarantine,
            report: report, limit: limit.limit, tool: "bitmap")
        var job = BitmapJob(
            reader: reader, outputPath: output, quarantinePath: quarantinePath, render: raster.options,
            inputFormat: input.inputFormat, showsProgress: quiet.showsProgress, jobs: jobs.resolved)
        job.timeChannels = try timeChannels()
        let (result, seconds) = try ReportJSONOption.timed { try job.run() }
        let tally = result.tally
        try report.write(
            command: "bitmap", counts: tally, inputs: reader.files, output: output, quarantine: quarantinePath,
            jobs: jobs.resolved, seconds: seconds)
        let side = raster.size
        let shape = job.timeChannels.isEmpty ? "\(side * side)" : "\(side), \(side), \(job.timeChannels.count)"
        OutputPaths.printSummary(
            "bitmap: \(tally) → \(OutputPaths.destination(output, tally)) (uint8, shape (\(tally.written), \(shape)))", output: output)
        try strictness.check(tally, command: "bitmap", rejectedByReason: result.rejectedByReason)
    }
}
