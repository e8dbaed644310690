import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchDataset
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
        """)

    @Option(name: .customLong("raw"), help: "Raw NDJSON input (file, directory, .gz or -); repeatable.")
    var raw: [String]

    @Option(name: .customLong("simplified"), help: "Official simplified NDJSON input (file, directory or .gz); repeatable.")
    var simplified: [String]

    @Option(name: .customLong("report-json"), help: "Write the report as JSON here (keys include pairs, exact, exact_rate).")
    var reportJSON: String?

    @Option(name: .customLong("report-md"), help: "Write the report as Markdown here.")
    var reportMarkdown: String?

    @Option(name: .customLong("min-exact"), help: "Exit with status 1 when the exact rate (0…1) is below this.")
    var minimumExactRate: Double?

    @Option(help: "File that receives rejected input lines verbatim. (default: rejected lines are only listed on stderr and counted)")
    var quarantine: String?

    @Option(name: .customLong("worst"), help: "How many of the worst drawings to list (at most \(ParityComparison.maximumWorstLimit); larger values are clamped).")
    var worstCount = 25

    @Option(name: .customLong("overlays"), help: "Write PNG overlays of the worst drawings (official blue, ours orange) into this directory and link them from --report-md.")
    var overlaysDirectory: String?

    @Flag(name: .shortAndLong, help: "No progress or per-line messages on stderr.")
    var quiet = false

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Simplification parameters")
    var simplification: SimplificationOptionGroup

    func validate() throws {
        if raw.isEmpty || simplified.isEmpty { throw ValidationError("give at least one --raw and one --simplified input") }
        if let minimumExactRate, !(0...1).contains(minimumExactRate) {
            throw ValidationError("--min-exact is a rate between 0 and 1, e.g. 0.94")
        }
        if worstCount < 0 { throw ValidationError("--worst must be ≥ 0") }
    }

    func run() throws {
        var paths = OutputPathCheck()
        paths.inputs(raw, option: "--raw")
        paths.inputs(simplified, option: "--simplified")
        paths.outputFile(quarantine, option: "--quarantine")
        paths.outputFile(reportJSON, option: "--report-json")
        paths.outputFile(reportMarkdown, option: "--report-md")
        paths.outputDirectory(overlaysDirectory, option: "--overlays")
        try paths.verify()
        var rawReader = try QuickDrawReader(inputs: raw)
        rawReader.keepsTimestamps = false
        let officialReader = try QuickDrawReader(inputs: simplified)
        rawReader.printSkippedSources(tool: "parity")
        officialReader.printSkippedSources(tool: "parity")
        if let quarantine { try OutputPaths.createParentDirectory(of: quarantine) }
        let rejects = try QuarantineWriter(path: quarantine, maximumMessages: quiet ? 0 : 20)
        let options = simplification.options
        let start = Date()

        // Each side keeps the first record of a key_id; later repeats are counted and named.
        var official: [String: (word: String, drawing: Drawing)] = [:]
        var officialTally = RunTally()
        var duplicateOfficial = DuplicateKeys()
        try officialReader.read(
            onRecord: { record, _ in
                officialTally.read += 1
                officialTally.written += 1
                if official[record.keyID] == nil {
                    official[record.keyID] = (record.word, record.drawing)
                } else {
                    duplicateOfficial.add(record.keyID)
                }
            },
            onRejected: { line in
                try officialTally.reject(line, into: rejects)
            })

        var comparison = ParityComparison(worstLimit: worstCount)
        var simplifier = Simplifier(options: options)
        var rawTally = RunTally()
        var unmatchedRaw = 0
        var seenRaw = Set<String>()
        var duplicateRaw = DuplicateKeys()
        var overlays = overlaysDirectory.map(ParityOverlays.init(directory:))
        let progress = ProgressReporter(unit: "raw drawings", totalBytes: rawReader.inputByteCount, enabled: !quiet)
        try rawReader.read(
            onRecord: { record, _ in
                guard !seenRaw.contains(record.keyID) else {
                    rawTally.read += 1
                    rawTally.written += 1
                    progress.advance()
                    duplicateRaw.add(record.keyID)
                    return
                }
                guard let match = official[record.keyID] else {
                    rawTally.read += 1
                    rawTally.written += 1
                    progress.advance()
                    seenRaw.insert(record.keyID)
                    unmatchedRaw += 1
                    return
                }
                // A drawing over a resampling cap throws here and is quarantined by the reader.
                let ours = try simplifier.simplify(record.drawing)
                rawTally.read += 1
                rawTally.written += 1
                progress.advance()
                seenRaw.insert(record.keyID)
                official[record.keyID] = nil
                comparison.add(keyID: record.keyID, word: match.word, ours: ours, official: match.drawing)
                overlays?.add(keyID: record.keyID, ours: ours, official: match.drawing, comparison: comparison)
            },
            onRejected: { line in
                try rawTally.reject(line, into: rejects)
            },
            onProgress: { progress.update(bytesConsumed: $0) })
        progress.finish()
        try rejects.finish()

        let report = ParityReport(comparison: comparison, unmatchedRaw: unmatchedRaw,
                                  unmatchedOfficial: official.count, duplicateOfficial: duplicateOfficial, duplicateRaw: duplicateRaw,
                                  rawTally: rawTally, officialTally: officialTally, options: options,
                                  seconds: Date().timeIntervalSince(start))
        print(report.summary)
        if let reportJSON { try OutputPaths.writeJSON(report, to: reportJSON) }
        let overlaySection = try overlays?.write(report.worst, reportPath: reportMarkdown) ?? ""
        if let reportMarkdown {
            try OutputPaths.createParentDirectory(of: reportMarkdown)
            try writeAtomically(report.markdown + overlaySection, to: reportMarkdown)
        }
        try strictness.check(RunTally(read: rawTally.read + officialTally.read,
                                      written: rawTally.written + officialTally.written,
                                      rejected: rawTally.rejected + officialTally.rejected,
                                      sourceErrors: rawTally.sourceErrors + officialTally.sourceErrors),
                             command: "parity")
        if let minimumExactRate, report.exactRate < minimumExactRate {
            print("parity: exact rate \(ParityReport.percent(report.exactRate)) is below --min-exact \(ParityReport.percent(minimumExactRate))")
            throw ExitCode.failure
        }
    }
}
