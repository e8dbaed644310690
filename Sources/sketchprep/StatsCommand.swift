import ArgumentParser
import SketchDataset
import SketchIO
import SketchPipeline

/// `sketchprep stats`: a dataset profile as stats.json, stats.md and a self-contained stats.html.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Profile Quick, Draw! drawings: counts, histograms, truncation share, duplicates, thumbnails.",
        discussion: """
            Streams raw or simplified NDJSON, Google .bin or sketch-rnn stroke-3 .npz (files, directories, \
            .gz, - for stdin; raw drawings are simplified with Google's rule first, see --input-format) and writes DIR/stats.json, DIR/stats.md, \
            DIR/rejected.ndjson (the quarantine, when a line is rejected) and DIR/stats.html (one self-contained page: SVG histograms, PNG thumbnails as data: URIs, no \
            script). Per category: drawings, countries, recognized flags, strokes, points, extent and \
            timestamp histograms, the share of drawings the stroke encoder truncates at --length, and \
            thumbnails chosen by hash rank of key_id. Runs on the streaming engine; output bytes do not depend on --jobs. See docs/stats.md.

            Examples:
              sketchprep stats raw/ -o stats
              sketchprep stats cat.bin -o try --limit 1000 --report-json try.json
            """)

    @Argument(help: "Drawing inputs (NDJSON, .bin, stroke-3 .npz): files, directories, .gz, or - for stdin.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output directory for stats.json, stats.md and stats.html.")
    var output: String

    @Option(help: "Sequence length whose truncation share is reported.")
    var length = 75

    @Option(help: "Thumbnails per category (0–256).")
    var thumbnails = 12

    @OptionGroup var jobs: JobsOption

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Input format")
    var input: DrawingInputOptionGroup

    @OptionGroup var limit: LimitOption

    @OptionGroup var report: ReportJSONOption

    func validate() throws {
        guard length >= 1 else { throw ValidationError("--length must be at least 1 (got \(length))") }
        guard (0...256).contains(thumbnails) else { throw ValidationError("--thumbnails must be between 0 and 256 (got \(thumbnails))") }
    }

    func run() throws {
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputDirectory(output, option: "--output")
        report.register(in: &paths)
        try paths.verify()
        try StatsJob.refuseDatasetDirectories(inputs)
        var source = try input.source(inputs)
        source.recordLimitPerInput = limit.limit
        var job = try StatsJob(
            source: source, length: length, thumbnailCount: thumbnails,
            jobs: jobs.resolved, showsMessages: quiet.showsProgress)
        job.inputFormat = input.inputFormat
        printWarnings(job.reader.skippedSources, tool: "stats")
        let (profile, seconds) = try ReportJSONOption.timed { try job.run(outputDirectory: output) }
        try report.write(
            command: "stats", counts: profile.tally, inputs: job.files, output: output,
            quarantine: "\(output)/\(StatsJob.quarantineName)", jobs: jobs.resolved, seconds: seconds)
        print(
            "stats: \(profile.tally), \(profile.categories.count) \(profile.categories.count == 1 ? "category" : "categories") → \(OutputPaths.destination("\(output)/stats.{json,md,html}", profile.tally))"
        )
        try strictness.check(profile.tally, command: "stats", rejectedByReason: profile.rejectedByReason)
    }
}
