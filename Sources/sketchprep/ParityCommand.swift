import ArgumentParser
import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
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
        var paths = OutputPathCheck()
        paths.inputs(raw, option: "--raw")
        paths.inputs(simplified, option: "--simplified")
        paths.outputFile(quarantine, option: "--quarantine")
        reportJSON.register(in: &paths)
        paths.outputFile(reportMarkdown, option: "--report-md")
        paths.outputDirectory(overlaysDirectory, option: "--overlays")
        try paths.verify()
        var rawReader = try DrawingSource(inputs: raw)
        var officialReader = try DrawingSource(inputs: simplified)
        rawReader.recordLimitPerInput = limit.limit
        officialReader.recordLimitPerInput = limit.limit
        printWarnings(rawReader.skippedSources + officialReader.skippedSources, tool: "parity")
        if let quarantine { try OutputTarget.createParentDirectory(of: quarantine) }
        let options = simplification.options
        let job = ParityJob(
            raw: rawReader, official: officialReader, options: options, worstLimit: worstCount,
            quarantinePath: quarantine, showsProgress: quiet.showsProgress, jobs: jobs.resolved)
        var overlays = overlaysDirectory.map(ParityOverlays.init(directory:))
        let result = try job.run { keyID, ours, official, comparison in
            overlays?.add(keyID: keyID, ours: ours, official: official, comparison: comparison)
        }
        let (rawTally, officialTally) = (result.rawTally, result.officialTally)
        let report = ParityReport(
            comparison: result.comparison, unmatchedRaw: result.unmatchedRaw,
            unmatchedOfficial: result.unmatchedOfficial, duplicateOfficial: result.duplicateOfficial,
            duplicateRaw: result.duplicateRaw, rawTally: rawTally, officialTally: officialTally,
            options: options)
        print(report.summary)
        if let warning = ParityReport.alreadySimplifiedWarning(result.rawAlreadySimplified, pairs: report.pairs) {
            printToStandardError("parity: warning: \(warning)")
        }
        try reportJSON.write(
            report,
            timings: RunTimings(
                command: "parity", jobs: jobs.resolved, seconds: result.seconds,
                items: rawTally.read + officialTally.read))
        let overlaySection = try overlays?.write(report.worst, reportPath: reportMarkdown) ?? ""
        if let reportMarkdown {
            try OutputTarget.createParentDirectory(of: reportMarkdown)
            try writeAtomically(report.markdown + overlaySection, to: reportMarkdown)
        }
        try strictness.check(
            RecordCounts(
                read: rawTally.read + officialTally.read,
                written: rawTally.written + officialTally.written,
                rejected: rawTally.rejected + officialTally.rejected,
                sourceErrors: rawTally.sourceErrors + officialTally.sourceErrors),
            command: "parity")
        if let failure = report.failure {
            printToStandardError("parity: \(failure)")
            throw ExitCode.failure
        }
        if let minimum = try minimumExact.map(MinimumExactRate.init(parsing:)), report.exactRate < minimum.rate {
            print("parity: exact rate \(ParityReport.percent(report.exactRate)) is below --min-exact \(ParityReport.percent(minimum.rate))")
            throw ExitCode.failure
        }
    }
}
