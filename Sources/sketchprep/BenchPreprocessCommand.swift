import ArgumentParser
import Foundation
import SketchCore
import SketchIO

/// `sketchprep bench preprocess`: raw → stroke-tensor shards throughput (one core) next to the
/// Python reference.
struct BenchPreprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preprocess",
        abstract: "Benchmark raw→stroke-tensor-shards throughput next to the Python reference.",
        discussion: """
        1. In this process, on one core, N passes per stage: read+parse+simplify+encode (tensors \
        kept in one reused buffer), then the whole pipeline of --pipeline into a fresh temporary \
        directory each pass (split, shuffle, NPY shards, SHA-256 of sources and shards, manifest). \
        The best pass (by CPU time) is reported as drawings/s and MB/s, by wall clock and CPU time. \
        2. The Python reference script on the same inputs (json, numpy simplification, numpy \
        recipe, np.save). Temporary files are deleted.
        """)

    @Argument(help: "Raw NDJSON inputs. (default: ../shared/data/quickdraw/raw or $SKETCHPREP_SHARED/quickdraw/raw, else SampleData/quickdraw/raw)")
    var inputs: [String] = []

    @Option(help: "Pipeline whose encode, split and output settings are measured.")
    var pipeline = "Pipelines/quickdraw-rnn.yaml"

    @Option(help: "Passes per in-process stage; the best is reported.")
    var passes = 3

    @Option(name: .customLong("python-reference"), help: "Python reference script (prints one JSON line).")
    var pythonReference = "scripts/bench_reference_preprocess.py"

    @Option(help: "Python interpreter.")
    var python = "python3"

    @Flag(name: .customLong("skip-python"), help: "Do not run the Python reference.")
    var skipPython = false

    @Option(name: .customLong("work-dir"), help: "Directory for temporary files. (default: the system temporary directory)")
    var workDirectory: String?

    @Option(name: .customLong("report-json"), help: "Also write the measurements to this JSON file.")
    var reportJSON: String?

    func validate() throws {
        if passes < 1 { throw ValidationError("--passes must be ≥ 1") }
    }

    func run() throws {
        var config = try PipelineConfig.load(path: pipeline)
        config.source.inputs = inputs.isEmpty ? [BenchSimplifyCommand.defaultInput()] : inputs
        let reader = try QuickDrawReader(inputs: config.source.inputs)
        let work = URL(fileURLWithPath: workDirectory ?? NSTemporaryDirectory())
            .appendingPathComponent("sketchprep-bench-preprocess-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let bytes = reader.inputByteCount ?? 0
        print("bench preprocess: \(reader.files.count) input files, \(BenchSimplifyCommand.megabytes(bytes)) MB, "
            + "pipeline \(pipeline), best of \(passes) passes, one core")
        var report = BenchPreprocessReport(inputs: reader.files, inputBytes: bytes, pipeline: pipeline)
        report.stages.append(try best(stage: "read+parse+simplify+encode", bytes: bytes) {
            try encodeOnly(reader: reader, config: config)
        })
        var pass = 0
        report.stages.append(try best(stage: "preprocess pipeline (shards + manifest)", bytes: bytes) {
            pass += 1
            var passConfig = config
            passConfig.output.directory = work.appendingPathComponent("out-\(pass)").path
            let outcome = try PipelineRunner(config: passConfig, pipelineFile: pipeline, showProgress: false, force: true).run()
            try? FileManager.default.removeItem(atPath: passConfig.output.directory)
            return outcome.manifest.records.read
        })
        for stage in report.stages { print(stage.line) }

        if !skipPython {
            let python = try measurePython(files: reader.files)
            print(python.line)
            report.python = python
            if let swift = report.stages.last, python.seconds > 0 {
                print(String(format: "speed-up of sketchprep preprocess over the Python reference: %.1f× (wall), %.1f× (CPU)",
                             swift.drawingsPerSecond / python.drawingsPerSecond,
                             swift.drawingsPerCPUSecond / python.drawingsPerCPUSecond))
            }
        }
        if let reportJSON { try OutputPaths.writeJSON(report, to: reportJSON) }
    }

    /// Reads, simplifies what is raw and encodes every drawing into one reused buffer.
    private func encodeOnly(reader: QuickDrawReader, config: PipelineConfig) throws -> Int {
        guard case let .strokes(options) = config.encode else {
            throw CommandError("\(pipeline): bench preprocess measures stroke pipelines (encode.kind: strokes)")
        }
        var simplifier = Simplifier(options: config.simplification)
        var buffer: [Float] = []
        var count = 0
        try reader.read(onRecord: { record, _ in
            let raw = config.source.format == .raw
                || (config.source.format == .auto && record.drawing.strokes.contains { !$0.t.isEmpty })
            buffer.removeAll(keepingCapacity: true)
            StrokeTensorEncoder.encode(raw ? simplifier.simplify(record.drawing) : record.drawing,
                                       options: options, appendingTo: &buffer)
            count += 1
        }, onRejected: { _ in count += 1 })
        return count
    }

    private func best(stage: String, bytes: Int, _ body: () throws -> Int) throws -> BenchMeasurement {
        var best: BenchMeasurement?
        for _ in 0..<passes {
            let startUsage = ResourceUsage.current()
            let start = ResourceUsage.wallSeconds()
            let drawings = try body()
            let seconds = ResourceUsage.wallSeconds() - start
            let cpu = ResourceUsage.current().cpuSeconds - startUsage.cpuSeconds
            let measurement = BenchMeasurement(stage: stage, drawings: drawings, bytes: bytes, seconds: seconds, cpuSeconds: cpu)
            if best == nil || measurement.cpuSeconds < best!.cpuSeconds { best = measurement }
        }
        return best!
    }

    private func measurePython(files: [String]) throws -> BenchMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, pythonReference] + files
        let output = Pipe()
        process.standardOutput = output
        printToStandardError("bench: running the Python reference \(pythonReference)")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError("the Python reference failed with status \(process.terminationStatus) (is `make setup` done?)")
        }
        let result = try JSONDecoder().decode(PythonResult.self, from: data)
        var measurement = BenchMeasurement(stage: "Python reference (json + numpy, tensors)", drawings: result.drawings,
                                           bytes: result.bytes, seconds: result.seconds, cpuSeconds: result.cpu_seconds)
        measurement.peakResidentBytes = result.peak_rss_kb * 1024
        return measurement
    }

    private struct PythonResult: Decodable {
        var drawings: Int
        var bytes: Int
        var seconds: Double
        var cpu_seconds: Double
        var peak_rss_kb: Int
    }
}

/// The `--report-json` document of `bench preprocess`.
struct BenchPreprocessReport: Encodable {
    var inputs: [String]
    var inputBytes: Int
    var pipeline: String
    var stages: [BenchMeasurement] = []
    var python: BenchMeasurement?

    enum CodingKeys: String, CodingKey {
        case inputs, pipeline, stages, python
        case inputBytes = "input_bytes"
    }
}
