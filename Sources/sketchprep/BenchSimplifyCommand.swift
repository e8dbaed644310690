import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline

/// `sketchprep bench simplify`: raw → simplified throughput (one core) next to the Python
/// reference, and peak memory of `simplify` on an input of at least 1 GB.
struct BenchSimplifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify",
        abstract: "Benchmark raw→simplified throughput, the Python reference, and peak RSS on ≥ 1 GB.",
        discussion: """
        1. In this process, on one core: --passes passes over the inputs for each stage (read+parse, \
        +simplify, full `simplify` writing NDJSON to a temporary file); the pass with the least CPU \
        time is reported as drawings/s and MB/s of input, by wall clock and by CPU time. The full \
        `simplify` stage is the headline figure.
        2. A temporary file of at least --large-mb MiB made by repeating the inputs, converted by a \
        child `sketchprep simplify`; its peak RSS and CPU time come from wait4.
        3. The Python reference on the same inputs (numpy + simplification), measured the same way.

        Temporary files are deleted.
        """)

    @Option(name: .customLong("python-reference"), help: "Python reference script, run as SCRIPT --rdp simplification FILE... > OUT (the numpy reference of docs/parity.md with the PyPI simplification RDP).")
    var pythonReference = "scripts/reference_simplify.py"

    @Option(name: .customLong("large-mb"), help: "Size of the generated large input in MiB (0 skips the peak-memory run).")
    var largeMegabytes = 1024

    @OptionGroup var common: BenchRunOptions

    @OptionGroup(title: "Simplification parameters")
    var simplification: SimplificationOptionGroup

    func validate() throws {
        if !(0...(1 << 20)).contains(largeMegabytes) { throw ValidationError("--large-mb must be between 0 and 1048576 (1 TiB)") }
    }

    func run() throws {
        let reader = try QuickDrawReader(inputs: common.resolvedInputs)
        let options = simplification.options
        let work = try common.makeWorkDirectory(named: "bench")
        defer { try? FileManager.default.removeItem(at: work) }

        var report = BenchSimplifyReport(inputs: reader.files, inputBytes: reader.inputByteCount ?? 0,
                                         options: options.reportFields)
        print("bench simplify: \(reader.files.count) input files, \(BenchRunOptions.megabytes(report.inputBytes)) MB, best of \(common.passes) passes, one core")
        report.stages = try measureStages(reader: reader, options: options, work: work)
        report.drawings = report.stages.first?.drawings ?? 0
        for stage in report.stages { print(stage.line) }
        if let command = report.stages.last {
            print(String(format: "headline: simplify command (raw → simplified NDJSON), one core: %.0f drawings/s of CPU time, %.0f by wall clock (target ≥ 50000)",
                         command.drawingsPerCPUSecond, command.drawingsPerSecond))
        }

        if largeMegabytes > 0 {
            let large = try measureLargeInput(reader: reader, work: work)
            print(large.line)
            report.large = large
        }
        if !common.skipPython {
            let python = try measurePython(reader: reader, drawings: report.drawings, work: work)
            print(python.line)
            report.python = python
            BenchRunOptions.printSpeedUp(of: "simplify", stages: report.stages, python: python)
        }
        if let reportJSON = common.reportJSON { try OutputPaths.writeJSON(report, to: reportJSON) }
    }

    private func measureStages(reader: QuickDrawReader, options: SimplificationOptions, work: URL) throws -> [BenchMeasurement] {
        var timestampFree = reader
        timestampFree.keepsTimestamps = false
        let bytes = reader.inputByteCount ?? 0
        let parse = try common.bestPass(stage: "read+parse", bytes: bytes) {
            var count = 0
            try timestampFree.readFlat(onRecord: { _, _, _ in count += 1 }, onRejected: { _ in count += 1 })
            return count
        }
        let simplify = try common.bestPass(stage: "read+parse+simplify", bytes: bytes) {
            var simplifier = Simplifier(options: options)
            var simplified = FlatStrokes()
            var count = 0
            try timestampFree.readFlat(onRecord: { _, strokes, _ in
                try simplifier.simplify(strokes, into: &simplified)
                count += 1
            }, onRejected: { _ in count += 1 })
            return count
        }
        let output = work.appendingPathComponent("bench-out.ndjson").path
        let full = try common.bestPass(stage: "simplify command (writes NDJSON)", bytes: bytes) {
            let job = SimplifyJob(reader: reader, outputPath: output,
                                  quarantinePath: work.appendingPathComponent("bench-rejected.ndjson").path,
                                  options: options, showsProgress: false)
            return try job.run().tally.read
        }
        return [parse, simplify, full]
    }

    private func measureLargeInput(reader: QuickDrawReader, work: URL) throws -> BenchMeasurement {
        let large = work.appendingPathComponent("bench-large.ndjson")
        let target = largeMegabytes << 20
        guard FileManager.default.createFile(atPath: large.path, contents: nil) else {
            throw CommandError("cannot create \(large.path)")
        }
        let handle = try FileHandle(forWritingTo: large)
        var written = 0
        let contents = try reader.files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        while written < target {
            for data in contents {
                try handle.write(contentsOf: data)
                if data.last != 0x0A { try handle.write(contentsOf: Data([0x0A])) }
                written += data.count
            }
        }
        try handle.close()
        printToStandardError("bench: generated \(BenchRunOptions.megabytes(written)) MB input, running sketchprep simplify on it")

        let report = work.appendingPathComponent("bench-large.json")
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let child = try ChildProcess.run(
            [executable, "simplify", large.path, "-o", work.appendingPathComponent("bench-large-out.ndjson").path,
             "--report-json", report.path, "--quiet"] + simplification.commandLineArguments,
            standardOutput: "/dev/null")
        try? FileManager.default.removeItem(at: large)
        guard child.status == 0 else {
            throw CommandError("the large-input simplify run failed with status \(child.status)")
        }
        let counts = try JSONDecoder().decode(LargeRunCounts.self, from: Data(contentsOf: report))
        var measurement = BenchMeasurement(stage: "simplify command on the large input (child process)",
                                           drawings: counts.read, bytes: written, seconds: child.seconds,
                                           cpuSeconds: child.usage.cpuSeconds)
        measurement.peakResidentBytes = child.usage.peakResidentBytes
        return measurement
    }

    private func measurePython(reader: QuickDrawReader, drawings: Int, work: URL) throws -> BenchMeasurement {
        printToStandardError("bench: running the Python reference \(pythonReference)")
        let child = try ChildProcess.run([common.python, pythonReference, "--rdp", "simplification"] + reader.files,
                                         standardOutput: work.appendingPathComponent("bench-python-out.ndjson").path)
        guard child.status == 0 else {
            throw CommandError("the Python reference failed with status \(child.status) (is `make setup` done?)")
        }
        var measurement = BenchMeasurement(stage: "Python reference (numpy + simplification)", drawings: drawings,
                                           bytes: reader.inputByteCount ?? 0, seconds: child.seconds,
                                           cpuSeconds: child.usage.cpuSeconds)
        measurement.peakResidentBytes = child.usage.peakResidentBytes
        return measurement
    }

    private struct LargeRunCounts: Decodable { var read: Int }
}

/// The `--report-json` document of `bench simplify`.
struct BenchSimplifyReport: Encodable {
    var inputs: [String]
    var inputBytes: Int
    var options: [String: String]
    var drawings = 0
    var stages: [BenchMeasurement] = []
    var large: BenchMeasurement?
    var python: BenchMeasurement?

    enum CodingKeys: String, CodingKey {
        case inputs, options, drawings, stages, large, python
        case inputBytes = "input_bytes"
    }
}
