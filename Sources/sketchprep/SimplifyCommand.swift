import ArgumentParser
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// `sketchprep simplify`: raw Quick, Draw! NDJSON → simplified NDJSON in Google's layout.
struct SimplifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify",
        abstract: "Simplify raw Quick, Draw! drawings the way Google's simplified files are made.",
        discussion: """
            Aligns each drawing to the top-left, scales it uniformly to 255, resamples every stroke at \
            1 px and simplifies it with Ramer–Douglas–Peucker (ε = 2), then writes NDJSON with Google's \
            keys, key order and compact layout. Inputs may be files, directories (their NDJSON, .bin, \
            stroke-3 .npz and Kaggle CSV files, and SVG sketches below them; docs/formats.md), gzip files \
            or - for stdin. Drawings that are already simplified \
            (--input-format auto: no t array and every coordinate an integer in 0–255; every .bin) are \
            copied through unchanged, and the summary says how many. Bad lines are reported, quarantined and \
            counted; the run ends with read = written + rejected. See docs/foundation.md.

            Examples:
              sketchprep simplify raw/ -o simplified/all.ndjson
              zcat cat.ndjson.gz | sketchprep simplify - -o cat.ndjson --limit 100 --report-json cat.json
              sketchprep simplify raw/cat.ndjson -o - --quarantine cat.rejected.ndjson | gzip > cat.ndjson.gz
            """)

    @Argument(help: "Drawing inputs: NDJSON, Google .bin, stroke-3 .npz, Kaggle CSV or SVG files, directories, .gz, or - for stdin.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output NDJSON file (written atomically); - writes to stdout.")
    var output: String

    @Option(
        help:
            "File that receives rejected lines verbatim, created only when a line is rejected. (default: OUTPUT with .ndjson replaced by .rejected.ndjson; none with -o -)"
    )
    var quarantine: String?

    @OptionGroup var report: ReportJSONOption

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Simplification parameters")
    var simplification: SimplificationOptionGroup

    @OptionGroup(title: "Parallelism")
    var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup(title: "Input format")
    var input: DrawingInputOptionGroup

    func run() throws {
        let quarantinePath = try CommandOutputs.checkFile(
            inputs: inputs, output: output, of: .drawingLines, quarantine: quarantine, report: report.path)
        var reader = try input.source(inputs)
        reader.recordLimitPerInput = limit.limit
        printWarnings(reader.skippedSources, tool: "simplify")
        try OutputTarget.createParentDirectory(of: output)
        try OutputTarget.createParentDirectory(of: quarantinePath)
        let options = simplification.options
        var job = SimplifyJob(
            reader: reader, outputPath: output, quarantinePath: quarantinePath,
            options: options, showsProgress: quiet.showsProgress, jobs: jobs.resolved)
        job.inputFormat = input.inputFormat
        let result = try job.run()
        let rate = result.seconds > 0 ? Int(Double(result.tally.read) / result.seconds) : 0
        OutputPaths.printSummary(
            "simplify: \(result.tally) → \(OutputPaths.destination(output, result.tally)) (\(result.tally.written - result.copied) simplified, \(result.copied) already simplified and copied unchanged; \(rate) drawings/s)",
            output: output)
        printWarnings(result.warnings, tool: "simplify")
        if result.tally.rejected > 0, let quarantinePath {
            OutputPaths.printSummary("simplify: rejected lines in \(quarantinePath)", output: output)
        }
        try report.write(
            SimplifyReport(result: result, inputs: reader.files, output: output, quarantine: quarantinePath, options: options),
            timings: RunTimings(command: "simplify", jobs: jobs.resolved, seconds: result.seconds, items: result.tally.read))
        try strictness.check(result.tally, command: "simplify", rejectedByReason: result.rejectedByReason)
    }
}
