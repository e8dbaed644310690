import ArgumentParser
import SketchPipeline

/// `sketchprep parity`: how closely our simplification reproduces Google's simplified files.
struct ParityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parity",
        abstract: "Compare our raw→simplified output with Google's official simplified drawings.",
        discussion: """
            Joins raw and official simplified records by key_id (any order, any files), simplifies the \
            raw side and compares drawing by drawing. Prints a summary; --report-json / --report-md \
            write the full report (exact rate, same-point-count rate, deviation histogram, worst \
            drawings, per-category rates). The official side is held in memory keyed by key_id.

            Examples:
              sketchprep parity --raw raw/ --simplified simplified/ --report-json parity.json --report-md parity.md
              sketchprep parity --raw raw/cat.ndjson --simplified simplified/cat.ndjson --limit 1000 --min-exact 0.95
            """)

    @Option(name: .customLong("raw"), help: "Raw NDJSON input (file, directory, .gz or -); repeatable.")
    var raw: [String]

    @Option(name: .customLong("simplified"), help: "Official simplified NDJSON input (file, directory or .gz); repeatable.")
    var simplified: [String]

    @OptionGroup var reportJSON: ReportJSONOption

    @Option(name: .customLong("report-md"), help: "Write the report as Markdown here.")
    var reportMarkdown: String?

    @Option(
        name: .customLong("min-exact"),
        help: "Exit with status 1 when the exact rate is below this: a rate (0.9999) or a percentage with % (99.99%).")
    var minimumExact: String?

    @Option(help: "File that receives rejected input lines verbatim. (default: rejected lines are only listed on stderr and counted)")
    var quarantine: String?

    @Option(
        name: .customLong("worst"),
        help: "How many of the worst drawings to list (at most \(ParityComparison.maximumWorstLimit); larger values are clamped).")
    var worstCount = 25

    @Option(
        name: .customLong("overlays"),
        help: "Write PNG overlays of the worst drawings (official blue, ours orange) into this directory and link them from --report-md.")
    var overlaysDirectory: String?

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Parallelism")
    var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @OptionGroup(title: "Simplification parameters")
    var simplification: SimplificationOptionGroup

    func validate() throws {
        if raw.isEmpty || simplified.isEmpty { throw ValidationError("give at least one --raw and one --simplified input") }
        if let minimumExact {
            do { _ = try MinimumExactRate(parsing: minimumExact) } catch { throw ValidationError("\(error)") }
        }
        if worstCount < 0 { throw ValidationError("--worst must be ≥ 0") }
    }

    func run() throws {
        var settings = ParityRun.Settings(raw: raw, simplified: simplified)
        settings.options = simplification.options
        settings.worstLimit = worstCount
        settings.quarantine = quarantine
        settings.reportJSON = reportJSON.path
        settings.reportMarkdown = reportMarkdown
        settings.overlaysDirectory = overlaysDirectory
        settings.minimumExact = try minimumExact.map(MinimumExactRate.init(parsing:))
        settings.recordLimit = limit.limit
        settings.jobs = jobs.resolved
        settings.showsProgress = quiet.showsProgress
        let run = try ParityRun(settings)
        printWarnings(run.warnings, tool: "parity")
        let outcome = try run.run()
        print(outcome.report.summary)
        printWarnings(outcome.warnings, tool: "parity")
        try strictness.check(outcome.counts, command: "parity")
        if let failure = outcome.failure {
            printToStandardError("parity: \(failure)")
            throw ExitCode.failure
        }
        if let belowMinimum = outcome.belowMinimum {
            print("parity: \(belowMinimum)")
            throw ExitCode.failure
        }
    }
}
