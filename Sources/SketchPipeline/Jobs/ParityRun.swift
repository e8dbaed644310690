import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// `sketchprep parity` from its settings to its files: the path check, the two readers, the job
/// (``ParityJob``), the report written as JSON and Markdown with the overlays of the worst
/// drawings, and why the run fails. The CLI parses its options into this and prints what it returns.
package struct ParityRun {
    /// What the command was asked for.
    package struct Settings {
        /// `--raw` inputs.
        package var raw: [String]
        /// `--simplified` inputs (Google's official simplified drawings).
        package var simplified: [String]
        /// Simplification parameters for the raw side.
        package var options = SimplificationOptions()
        /// `--worst`: how many of the worst drawings the report lists.
        package var worstLimit = 25
        /// `--quarantine`: where rejected lines go, or nil to only count them.
        package var quarantine: String?
        /// `--report-json`.
        package var reportJSON: String?
        /// `--report-md`.
        package var reportMarkdown: String?
        /// `--overlays`: the directory of PNG overlays of the worst drawings.
        package var overlaysDirectory: String?
        /// `--min-exact`: the exact rate below which the run fails.
        package var minimumExact: MinimumExactRate?
        /// `--limit`: records read from each input.
        package var recordLimit: Int?
        /// Worker threads; the report does not depend on it.
        package var jobs = 1
        /// Whether progress and rejections are shown on stderr.
        package var showsProgress = false

        package init(raw: [String], simplified: [String]) {
            self.raw = raw
            self.simplified = simplified
        }
    }

    /// What a finished run found and wrote.
    package struct Outcome {
        /// The report (also written to `--report-json` and `--report-md` when asked for).
        package var report: ParityReport
        /// Warnings found while comparing (compared raw drawings that were already simplified).
        package var warnings: [String]
        /// Both sides' counts together, for `--strict`.
        package var counts: RecordCounts
        /// Why the run fails although it read its inputs (nothing compared), or nil.
        package var failure: String?
        /// The exact rate is below `--min-exact`: the line that says so, or nil.
        package var belowMinimum: String?
    }

    private let settings: Settings
    private let job: ParityJob
    /// Devices and FIFOs found in input directories and skipped, to show before the run.
    package let warnings: [String]

    /// Checks that the paths clash with nothing and opens the readers; throws before anything is
    /// read or written.
    package init(_ settings: Settings) throws {
        var paths = OutputPathCheck()
        paths.inputs(settings.raw, option: "--raw")
        paths.inputs(settings.simplified, option: "--simplified")
        paths.outputFile(settings.quarantine, option: "--quarantine")
        paths.outputFile(settings.reportJSON, option: "--report-json")
        paths.outputFile(settings.reportMarkdown, option: "--report-md")
        paths.outputDirectory(settings.overlaysDirectory, option: "--overlays")
        try paths.verify()
        var raw = try DrawingSource(inputs: settings.raw)
        var official = try DrawingSource(inputs: settings.simplified)
        raw.recordLimitPerInput = settings.recordLimit
        official.recordLimitPerInput = settings.recordLimit
        warnings = raw.skippedSources + official.skippedSources
        self.settings = settings
        job = ParityJob(
            raw: raw, official: official, options: settings.options, worstLimit: settings.worstLimit,
            quarantinePath: settings.quarantine, showsProgress: settings.showsProgress, jobs: settings.jobs)
    }

    /// Compares, then writes the reports asked for.
    package func run() throws -> Outcome {
        if let quarantine = settings.quarantine { try OutputTarget.createParentDirectory(of: quarantine) }
        var overlays = settings.overlaysDirectory.map(ParityOverlays.init(directory:))
        let result = try job.run { keyID, ours, official, comparison in
            overlays?.add(keyID: keyID, ours: ours, official: official, comparison: comparison)
        }
        let (rawTally, officialTally) = (result.rawTally, result.officialTally)
        let report = ParityReport(
            comparison: result.comparison, unmatchedRaw: result.unmatchedRaw,
            unmatchedOfficial: result.unmatchedOfficial, duplicateOfficial: result.duplicateOfficial,
            duplicateRaw: result.duplicateRaw, rawTally: rawTally, officialTally: officialTally,
            options: settings.options)
        if let path = settings.reportJSON {
            try RunReport.write(
                report,
                timings: RunTimings(
                    command: "parity", jobs: settings.jobs, seconds: result.seconds,
                    items: rawTally.read + officialTally.read),
                to: path)
        }
        let overlaySection = try overlays?.write(report.worst, reportPath: settings.reportMarkdown) ?? ""
        if let path = settings.reportMarkdown {
            try OutputTarget.createParentDirectory(of: path)
            try writeAtomically(report.markdown + overlaySection, to: path)
        }
        var belowMinimum: String?
        if let minimum = settings.minimumExact, report.exactRate < minimum.rate {
            belowMinimum =
                "exact rate \(ParityReport.percent(report.exactRate)) is below --min-exact \(ParityReport.percent(minimum.rate))"
        }
        return Outcome(
            report: report,
            warnings: ParityReport.alreadySimplifiedWarning(result.rawAlreadySimplified, pairs: report.pairs).map { [$0] } ?? [],
            counts: RecordCounts(
                read: rawTally.read + officialTally.read, written: rawTally.written + officialTally.written,
                rejected: rawTally.rejected + officialTally.rejected,
                sourceErrors: rawTally.sourceErrors + officialTally.sourceErrors),
            failure: report.failure, belowMinimum: belowMinimum)
    }
}
