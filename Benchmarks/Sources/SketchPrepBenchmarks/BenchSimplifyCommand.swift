import ArgumentParser
import Foundation
import SketchCore
import SketchFormats

/// `sketchprep-benchmarks simplify`: raw → simplified throughput next to the Python reference, and
/// peak memory of `sketchprep simplify` on an input of at least 1 GB.
struct BenchSimplifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simplify",
        abstract: "Raw→simplified throughput next to the Python reference, and peak RSS on ≥ 1 GB.",
        discussion: """
            1. A temporary file of at least --large-mb MiB made by repeating the inputs, converted by \
            a child `sketchprep simplify --jobs 1` (its peak RSS shows the memory bound; its rate, \
            with start-up spread over the whole file, is the one-core headline figure).
            2. `sketchprep simplify --jobs 1` writing NDJSON to a temporary file, as a child, --passes times.
            3. The Python reference on the same inputs (numpy + simplification), as a child.
            4. In this process, on one core, --passes passes over the inputs per stage: read+parse, \
            then read+parse+simplify (Google's rule).
            Every child is timed the same way (wall clock; CPU time and peak RSS from wait4); the \
            pass with the least CPU time counts. Speed-ups are drawings per CPU second over the \
            Python reference's. Temporary files are deleted.
            """)

    @Option(
        name: .customLong("python-reference"),
        help:
            "Python reference, run as SCRIPT --rdp simplification FILE... > OUT (the numpy reading of Google's rule with the PyPI simplification RDP)."
    )
    var pythonReference = "Tests/python/simplify_reference.py"

    @Option(name: .customLong("large-mb"), help: "Size of the generated large input in MiB (0 skips the peak-memory run).")
    var largeMegabytes = 1024

    @Argument(
        help:
            "Raw NDJSON inputs. (default: $SKETCHPREP_SHARED/quickdraw/raw, SKETCHPREP_SHARED defaulting to ../shared/data; else SampleData/quickdraw/raw)"
    )
    var inputs: [String] = []

    @OptionGroup var common: BenchRunOptions

    func validate() throws {
        if !(0...(1 << 20)).contains(largeMegabytes) { throw ValidationError("--large-mb must be between 0 and 1048576 (1 TiB)") }
    }

    func run() throws {
        let reader = try QuickDrawReader(inputs: BenchRunOptions.rawInputs(inputs))
        let work = try common.makeWorkDirectory(named: "bench-simplify")
        defer { try? FileManager.default.removeItem(at: work) }

        let bytes = reader.inputByteCount ?? 0
        var report = BenchSimplifyReport(inputs: reader.files, inputBytes: bytes)
        print("bench simplify: \(reader.files.count) input files, \(BenchRunOptions.megabytes(bytes)) MB, best of \(common.passes) passes")
        // Children first, while this process is small (see BenchMeasurement on peak RSS).
        if largeMegabytes > 0 {
            report.large = try measureLargeInput(reader: reader, work: work)
        }
        let output = work.appendingPathComponent("out.ndjson").path
        let counts = work.appendingPathComponent("out.json")
        var command = try common.bestChildPass(stage: "sketchprep simplify (child)", drawings: 0, bytes: bytes) { _ in
            [common.sketchprep, "simplify", "--quiet", "--jobs", "1", "-o", output, "--report-json", counts.path] + reader.files
        }
        command.drawings = try RunCounts.read(counts)
        report.drawings = command.drawings
        printToStandardError("bench simplify: running the Python reference \(pythonReference)")
        let python = try common.bestChildPass(
            stage: "Python reference (numpy + simplification)", drawings: report.drawings, bytes: bytes,
            standardOutput: work.appendingPathComponent("python.ndjson").path
        ) { _ in
            [common.python, pythonReference, "--rdp", "simplification"] + reader.files
        }
        report.python = python
        report.stages = try measureInProcess(reader: reader) + [command]
        for stage in report.stages { print(stage.line) }
        if let large = report.large { print(large.line) }
        print(python.line)
        var speedUps = [
            "simplify_command_cpu": command.drawingsPerCPUSecond / python.drawingsPerCPUSecond,
            "simplify_in_process_cpu": report.stages[1].drawingsPerCPUSecond / python.drawingsPerCPUSecond,
        ]
        if let large = report.large {
            // The same command where its start-up (some 50 ms) is spread over ≥ 1 GB.
            speedUps["simplify_large_command_cpu"] = large.drawingsPerCPUSecond / python.drawingsPerCPUSecond
        }
        try common.finish(report, benchmark: "simplify", speedUps: speedUps)
    }

    /// The in-process stages on one core: parsing alone, then parsing and simplifying.
    private func measureInProcess(reader: QuickDrawReader) throws -> [BenchMeasurement] {
        var timestampFree = reader
        timestampFree.keepsTimestamps = false
        let bytes = reader.inputByteCount ?? 0
        let parse = try common.bestPass(stage: "read+parse", bytes: bytes) {
            var count = 0
            try timestampFree.readFlat(onRecord: { _, _, _ in count += 1 }, onRejected: { _ in count += 1 })
            return count
        }
        let simplify = try common.bestPass(stage: "read+parse+simplify", bytes: bytes) {
            var simplifier = Simplifier()
            var simplified = FlatStrokes()
            var count = 0
            try timestampFree.readFlat(
                onRecord: { _, strokes, _ in
                    try simplifier.simplify(strokes, into: &simplified)
                    count += 1
                }, onRejected: { _ in count += 1 })
            return count
        }
        return [parse, simplify]
    }

    /// Peak RSS of `sketchprep simplify` on the inputs repeated to at least --large-mb MiB. The
    /// inputs are copied in 1 MiB chunks, so this process stays small.
    private func measureLargeInput(reader: QuickDrawReader, work: URL) throws -> BenchMeasurement {
        let large = work.appendingPathComponent("large.ndjson")
        guard FileManager.default.createFile(atPath: large.path, contents: nil) else {
            throw BenchmarkError("\(large.path): cannot create the large input (is --work-dir writable?)")
        }
        defer { try? FileManager.default.removeItem(at: large) }
        let output = try FileHandle(forWritingTo: large)
        var written = 0
        while written < largeMegabytes << 20 {
            for file in reader.files {
                let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
                var last: UInt8 = 0x0A
                while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try output.write(contentsOf: chunk)
                    written += chunk.count
                    last = chunk.last!
                }
                try input.close()
                if last != 0x0A { try output.write(contentsOf: Data([0x0A])) }
            }
        }
        try output.close()
        printToStandardError("bench simplify: generated \(BenchRunOptions.megabytes(written)) MB input, running sketchprep simplify on it")
        var once = common
        once.passes = 1
        let counts = work.appendingPathComponent("large-out.json")
        var measurement = try once.bestChildPass(stage: "sketchprep simplify on the large input (child)", drawings: 0, bytes: written) {
            _ in
            [
                common.sketchprep, "simplify", "--quiet", "--jobs", "1", "-o", work.appendingPathComponent("large-out.ndjson").path,
                "--report-json", counts.path, large.path,
            ]
        }
        measurement.drawings = try RunCounts.read(counts)
        return measurement
    }

    /// The part of `sketchprep simplify --report-json` the benchmark reads.
    private struct RunCounts: Decodable {
        var read: Int

        static func read(_ report: URL) throws -> Int {
            try JSONDecoder().decode(RunCounts.self, from: Data(contentsOf: report)).read
        }
    }
}

/// The `--report-json` document of `simplify`.
struct BenchSimplifyReport: Encodable {
    var inputs: [String]
    var inputBytes: Int
    var drawings = 0
    var stages: [BenchMeasurement] = []
    var large: BenchMeasurement?
    var python: BenchMeasurement?

    enum CodingKeys: String, CodingKey {
        case inputs, drawings, stages, large, python
        case inputBytes = "input_bytes"
    }
}
