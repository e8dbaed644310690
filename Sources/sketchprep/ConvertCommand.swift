import ArgumentParser
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

extension ConvertTarget: ExpressibleByArgument {}
extension Stroke3Layout: ExpressibleByArgument {}
extension Stroke3DTypeChoice: ExpressibleByArgument {}

/// `sketchprep convert`: NDJSON, Google .bin and sketch-rnn stroke-3 into one another.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert drawings between simplified NDJSON, Google .bin and sketch-rnn stroke-3 .npz.",
        discussion: """
            Writes one file per category into the output directory: <word>.bin (as Google's bucket and \
            the quickdraw package name them), <word>.ndjson or <word>.npz. Raw drawings are simplified \
            first (--input-format). Inputs may be NDJSON (raw or simplified, .gz too), .bin (.bin.gz too) or stroke-3 \
            .npz files, directories of them, or - for stdin; the format of each is decided by content \
            unless --format is given. What each format keeps and loses is in docs/formats.md. Records \
            a format cannot hold are quarantined; the run ends with read = written + filtered + rejected \
            (filtered: the drawings beyond --stroke3-sizes).

            Examples:
              sketchprep convert simplified/ --to bin -o bins
              sketchprep convert bins/ --to stroke3 -o npz --limit 1000 --report-json convert.json
              sketchprep convert kanji.npz --to stroke3 --layout flat -o flat
            """)

    @Argument(help: "Inputs: NDJSON, .bin or .npz files, directories, or - for stdin.")
    var inputs: [String]

    @Option(help: "Output format: bin, ndjson or stroke3.")
    var to: ConvertTarget

    @Option(name: .shortAndLong, help: "Output directory (one file per category).")
    var output: String

    @OptionGroup(title: "Input")
    var input: DrawingInputOptionGroup

    @Option(
        help:
            "File that receives rejected records, created only when one is rejected. (default: OUTPUT.rejected.ndjson beside the output directory)"
    )
    var quarantine: String?

    @Option(
        name: .customLong("stroke3-sizes"), help: "Stroke-3 drawings per class as TRAIN/VALID/TEST; a class with fewer keeps their ratio.")
    var stroke3Sizes = "70000/2500/2500"

    @Option(
        name: .customLong("stroke3-epsilon"),
        help: "Ramer–Douglas–Peucker tolerance applied to each stroke before stroke-3 encoding. (default: none)")
    var stroke3Epsilon: Double?

    @Option(
        name: .customLong("stroke3-dtype"),
        help: "Stroke-3 element type: keep (float64 input stays float64, else int16) or int16 (positions rounded).")
    var stroke3DType = Stroke3DTypeChoice.keep

    @Option(help: "Stroke-3 file layout: standard (sketch-rnn's pickled object arrays) or flat (points and offsets, no pickle).")
    var layout = Stroke3Layout.standard

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup var report: ReportJSONOption

    @OptionGroup(title: "Simplification parameters (raw input)")
    var simplification: SimplificationOptionGroup

    func validate() throws {
        if let stroke3Epsilon, !(stroke3Epsilon >= 0 && stroke3Epsilon.isFinite) {
            throw ValidationError("--stroke3-epsilon must be a finite number ≥ 0")
        }
        _ = try quota()
        if to != .stroke3 && (layout != .standard || stroke3DType != .keep) {
            throw ValidationError("--layout and --stroke3-dtype apply to --to stroke3")
        }
    }

    private func quota() throws -> Stroke3SplitQuota {
        let parts = stroke3Sizes.split(separator: "/").map { Int($0) }
        guard parts.count == 3, let train = parts[0], let valid = parts[1], let test = parts[2] else {
            throw ValidationError("--stroke3-sizes must be TRAIN/VALID/TEST, e.g. 70000/2500/2500")
        }
        do { return try Stroke3SplitQuota(train: train, valid: valid, test: test) } catch {
            throw ValidationError("--stroke3-sizes: \(error)")
        }
    }

    func run() throws {
        let quarantinePath = try CommandOutputs.checkDirectory(inputs: inputs, output: output, quarantine: quarantine, report: report.path)
        var source = try input.source(inputs)
        source.recordLimitPerInput = limit.limit
        printWarnings(source.skippedSources, tool: "convert")
        var job = ConvertJob(source: source, target: to, outputDirectory: output, quarantinePath: quarantinePath, quota: try quota())
        job.options = simplification.options
        job.inputFormat = input.inputFormat
        job.stroke3Epsilon = stroke3Epsilon
        job.stroke3ElementType = stroke3DType.forcedElementType
        job.stroke3Layout = layout
        job.showsProgress = quiet.showsProgress
        job.jobs = jobs.resolved
        try OutputTarget.createParentDirectory(of: job.quarantinePath)
        let result = try job.run()
        let counts = result.counts
        try report.write(
            command: "convert", counts: counts, inputs: source.files, output: output,
            quarantine: quarantinePath, jobs: job.jobs, seconds: result.seconds)
        print(
            "convert: read \(counts.read) = written \(counts.written) + filtered \(counts.filtered) + rejected \(counts.rejected)\(counts.sourceErrors > 0 ? ", \(counts.sourceErrors) source errors" : "") → \(result.files.count) \(to.rawValue) files in \(output)\(result.roundedToInt16 > 0 ? "; \(result.roundedToInt16) float64 drawings rounded to int16 (positions rounded, deltas re-derived)" : "")"
        )
        if !result.keyMaps.isEmpty {
            print(
                "convert: \(result.keyMaps.count) .bin file(s) hold key_ids derived from key_ids that are not uint64; <word>.keys.csv beside each maps them back (docs/formats.md)"
            )
        }
        try strictness.check(counts, command: "convert", rejectedByReason: result.rejectedByReason)
    }
}
