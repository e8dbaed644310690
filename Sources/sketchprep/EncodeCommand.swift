import ArgumentParser
import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

extension SequenceSide: ExpressibleByArgument {}

/// `sketchprep encode`: Quick, Draw! NDJSON → one `.npy` of stroke tensors in input line order.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode drawings as (N, 75, 3) float32 stroke tensors in one .npy, in input line order.",
        discussion: """
            The book's recipe (docs/tensors.md): points (x, y, end-of-stroke), per-axis min-max \
            normalisation to [0, 1], deltas, first 75 rows kept, zero rows padded at the front; all \
            float32. Raw drawings are simplified first with Google's steps (--input-format). \
            OUTPUT.keys.csv (key_id,word; a header row, then one row per array row) names each row. \
            Unusable lines go to the quarantine file and are reported; the run reconciles \
            read = written + rejected.

            Examples:
              sketchprep encode simplified/cat.ndjson -o cat.npy --length 75
              sketchprep encode raw/ -o try.npy --limit 100 --report-json try.json
              sketchprep encode simplified/cat.ndjson -o - | python3 -c 'import numpy, sys; print(numpy.load(sys.stdin.buffer).shape)'
            """)

    @Argument(help: "Drawing inputs: NDJSON (raw or simplified), Google .bin or stroke-3 .npz files, directories, .gz, or - for stdin.")
    var inputs: [String]

    @Option(
        name: [.short, .customLong("output")],
        help:
            "Output .npy file (written atomically), with OUTPUT.keys.csv beside it naming each row; - writes the .npy to stdout when complete."
    )
    var output: String

    @Option(help: "Rows per tensor.")
    var length = 75

    @Option(help: "Where zero rows go when a drawing is shorter: front or back.")
    var padding: SequenceSide = .front

    @Option(help: "Where rows are dropped when a drawing is longer: back (keep the first rows) or front (keep the last).")
    var truncation: SequenceSide = .back

    @Option(
        help:
            "Quarantine file for rejected lines, created only when a line is rejected. (default: OUTPUT with .npy replaced by .rejected.ndjson; none with -o -)"
    )
    var quarantine: String?

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Parallelism")
    var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup var report: ReportJSONOption

    @OptionGroup(title: "Input format")
    var input: DrawingInputOptionGroup

    @OptionGroup(title: "Simplification of raw input")
    var simplification: SimplificationOptionGroup

    @OptionGroup var quiet: QuietOption

    /// Bytes of tensor rows held before they are written (docs/limits.md).
    static let batchBytes = 4 << 20

    func validate() throws {
        guard (1...100_000).contains(length) else {
            throw ValidationError("--length must be between 1 and 100000, as encode.length in a pipeline")
        }
    }

    func run() throws {
        let (reader, quarantinePath) = try NPYCommandSetup.prepare(
            inputs: inputs, format: input, output: output, quarantine: quarantine,
            report: report, limit: limit.limit, tool: "encode")
        let job = EncodeJob(
            reader: reader, outputPath: output, quarantinePath: quarantinePath,
            tensor: StrokeTensorOptions(length: length, paddingSide: padding, truncationSide: truncation),
            inputFormat: input.inputFormat, simplification: simplification.options,
            showsProgress: quiet.showsProgress, jobs: jobs.resolved)
        let ((result, rows), seconds) = try ReportJSONOption.timed { try job.run() }
        let tally = result.tally
        try report.write(
            command: "encode", counts: tally, inputs: reader.files, output: output, quarantine: quarantinePath,
            jobs: jobs.resolved, seconds: seconds)
        OutputPaths.printSummary(
            "encode: \(tally) → \(OutputPaths.destination(output, tally)) (\(rows) × \(length) × 3 float32)", output: output)
        try strictness.check(tally, command: "encode", rejectedByReason: result.rejectedByReason)
    }
}
