import ArgumentParser
import Foundation

/// `sketchprep-benchmarks instructions`: instructions executed by the read path (callgrind), a
/// figure that does not depend on the machine's load, checked against checked-in baselines.
struct BenchInstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Instructions of sketchprep's read path under callgrind, checked against Benchmarks/Thresholds/instructions.json.",
        discussion: """
            Each run is one child under `valgrind --tool=callgrind`, environment and paths fixed, on \
            the fixed input (default: SampleData/quickdraw/raw, 6 files, 120 drawings):
            simplify_command_startup: `sketchprep simplify --jobs 1` on an empty file (which exits 1: \
            no record could be read);
            simplify_command: `sketchprep simplify --jobs 1` on the input;
            simplify_command_per_drawing: (simplify_command − startup) / drawings: read, parse, \
            simplify and write one drawing;
            preprocess_command: `sketchprep preprocess --pipeline PIPELINE --jobs 1` on the input;
            simplify_in_process_per_drawing: Google's simplification alone, counted inside one \
            function of this runner (`simplify-loop`), per drawing.
            With --thresholds DIR it exits with status 1 when a figure is more than DIR/instructions.json's \
            tolerance above its baseline; with --update it writes the measured figures there as the new baselines.
            """)

    @Option(help: "The sketchprep binary whose commands are counted (a release build).")
    var sketchprep = ".build/release/sketchprep"

    @Option(help: "valgrind executable.")
    var valgrind = "valgrind"

    @Option(help: "Pipeline of the preprocess_command figure.")
    var pipeline = "Pipelines/quickdraw-rnn.yaml"

    @Option(
        name: .customLong("work-dir"),
        help: "Directory for the outputs and callgrind files; a fixed path keeps the counts fixed (emptied first).")
    var workDirectory = "out/bench/instructions"

    @Option(name: .customLong("report-json"), help: "Also write the figures to this JSON file.")
    var reportJSON: String?

    @Option(help: "Directory holding instructions.json (baselines and tolerance), e.g. Benchmarks/Thresholds; exit 1 on a regression.")
    var thresholds: String?

    @Flag(help: "Write the measured figures to --thresholds DIR/instructions.json as the new baselines instead of checking them.")
    var update = false

    @Argument(help: "Raw NDJSON files or directories (their *.ndjson). (default: SampleData/quickdraw/raw)")
    var inputs: [String] = ["SampleData/quickdraw/raw"]

    func validate() throws {
        if update && thresholds == nil { throw ValidationError("--update needs --thresholds DIR") }
    }

    func run() throws {
        let files = try Self.ndjsonFiles(inputs)
        let work = URL(fileURLWithPath: workDirectory).standardizedFileURL
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let callgrind = CallgrindRun(valgrind: valgrind, work: work)
        let sketchprep = try callgrind.withoutDebugInformation(sketchprep)
        let runner = try callgrind.withoutDebugInformation(Self.absolute(CommandLine.arguments[0]))
        var report = BenchInstructionsReport(inputs: files, valgrind: try callgrind.version())
        print("bench instructions: \(files.count) input files under callgrind (\(report.valgrind))")

        let empty = work.appendingPathComponent("empty.ndjson")
        try Data().write(to: empty)
        let startup = try callgrind.instructions(
            "simplify-startup",
            [
                sketchprep, "simplify", "--quiet", "--jobs", "1", "-o", work.appendingPathComponent("empty-out.ndjson").path, empty.path,
            ], standardOutput: "/dev/null", expectedStatus: 1)
        let counts = work.appendingPathComponent("simplify.json")
        let simplify = try callgrind.instructions(
            "simplify",
            [
                sketchprep, "simplify", "--quiet", "--jobs", "1", "-o", work.appendingPathComponent("simplify.ndjson").path,
                "--report-json", counts.path,
            ] + files)
        report.drawings = try JSONDecoder().decode(SimplifyCounts.self, from: Data(contentsOf: counts)).read
        guard report.drawings > 0 else { throw BenchmarkError("\(files.joined(separator: " ")): no drawings to count") }
        let preprocess = try callgrind.instructions(
            "preprocess",
            [
                sketchprep, "preprocess", "--pipeline", Self.absolute(pipeline), "--quiet", "--jobs", "1",
                "--output", work.appendingPathComponent("preprocess").path,
            ] + files.flatMap { ["--input", $0] })
        let loopOutput = work.appendingPathComponent("simplify-loop.txt").path
        let loop = try callgrind.instructions(
            "simplify-loop", [runner, "simplify-loop"] + files,
            toggle: simplifyAllSymbol, standardOutput: loopOutput)
        let loopDrawings = Int(try String(contentsOfFile: loopOutput, encoding: .utf8).prefix { $0.isNumber }) ?? 0
        guard loopDrawings == report.drawings, loop > 0 else {
            throw BenchmarkError(
                "simplify-loop simplified \(loopDrawings) drawings in \(loop) instructions counted inside "
                    + "\(simplifyAllSymbol); sketchprep simplify read \(report.drawings) (is the symbol in the runner?)")
        }

        report.instructions = [
            "simplify_command_startup": startup,
            "simplify_command": simplify,
            "simplify_command_per_drawing": (simplify - startup) / report.drawings,
            "preprocess_command": preprocess,
            "simplify_in_process_per_drawing": loop / report.drawings,
        ]
        for (name, count) in report.instructions.sorted(by: { $0.key < $1.key }) {
            print("instructions \(name): \(count)")
        }
        if let reportJSON { try writeSortedJSON(report, to: reportJSON) }
        try FileManager.default.removeItem(at: work)
        guard let thresholds else { return }
        if update {
            var budget =
                (try? InstructionBudget.read(directory: thresholds))
                ?? InstructionBudget(tolerancePercent: 5, recorded: "", baselines: [:])
            budget.baselines = report.instructions
            budget.recorded = "\(Self.today()), \(report.valgrind), \(files.count) files, \(report.drawings) drawings"
            try budget.write(directory: thresholds)
            print("bench instructions: baselines written to \(InstructionBudget.file(in: thresholds))")
        } else {
            try InstructionBudget.read(directory: thresholds).check(report.instructions, file: InstructionBudget.file(in: thresholds))
        }
    }

    /// The files of `inputs`, a directory standing for its `*.ndjson` files in name order; absolute paths.
    private static func ndjsonFiles(_ inputs: [String]) throws -> [String] {
        try inputs.flatMap { input -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw BenchmarkError("\(input): no such input file or directory")
            }
            guard isDirectory.boolValue else { return [absolute(input)] }
            return try FileManager.default.contentsOfDirectory(atPath: input).filter { $0.hasSuffix(".ndjson") }.sorted()
                .map { absolute("\(input)/\($0)") }
        }
    }

    /// `path` made absolute against the current directory, so that the child's arguments do not
    /// depend on how the runner was called.
    private static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// Today's date (UTC), `yyyy-MM-dd`.
    private static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    /// The part of `sketchprep simplify --report-json` the benchmark reads.
    private struct SimplifyCounts: Decodable { var read: Int }
}

/// The `--report-json` document of `instructions`.
struct BenchInstructionsReport: Encodable {
    var inputs: [String]
    var valgrind: String
    var drawings = 0
    var instructions: [String: Int] = [:]
}
