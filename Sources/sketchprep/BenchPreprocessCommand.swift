import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline

/// `sketchprep bench preprocess`: raw → stroke-tensor shards throughput (one core) next to the
/// Python reference.
struct BenchPreprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preprocess",
        abstract: "Benchmark raw→stroke-tensor-shards throughput next to the Python reference.",
        discussion: """
        1. In this process, on one core, --passes passes per stage: read+parse+simplify+encode \
        (tensors kept in one reused buffer), then the whole pipeline of --pipeline into a fresh \
        temporary directory each pass (split, shuffle, NPY shards, SHA-256 of sources and shards, \
        manifest). The pass with the least CPU time is reported as drawings/s and MB/s, by wall \
        clock and CPU time.
        2. The Python reference script on the same inputs (json, numpy simplification, numpy \
        recipe, np.save).

        Temporary files are deleted.
        """)

    @Option(help: "Pipeline whose encode, split and output settings are measured.")
    var pipeline = "Pipelines/quickdraw-rnn.yaml"

    @Option(name: .customLong("python-reference"), help: "Python reference script (prints one JSON line).")
    var pythonReference = "scripts/bench_reference_preprocess.py"

    @OptionGroup var common: BenchRunOptions

    func run() throws {
        var config = try PipelineConfig.load(path: pipeline)
        config.source.inputs = common.resolvedInputs
        let reader = try QuickDrawReader(inputs: config.source.inputs)
        let work = try common.makeWorkDirectory(named: "bench-preprocess")
        defer { try? FileManager.default.removeItem(at: work) }

        let bytes = reader.inputByteCount ?? 0
        print("bench preprocess: \(reader.files.count) input files, \(BenchRunOptions.megabytes(bytes)) MB, "
            + "pipeline \(pipeline), best of \(common.passes) passes, one core")
        var report = BenchPreprocessReport(inputs: reader.files, inputBytes: bytes, pipeline: pipeline)
        report.stages.append(try common.bestPass(stage: "read+parse+simplify+encode", bytes: bytes) {
            try encodeOnly(reader: reader, config: config)
        })
        var pass = 0
        report.stages.append(try common.bestPass(stage: "preprocess pipeline (shards + manifest)", bytes: bytes) {
            pass += 1
            var passConfig = config
            passConfig.output.directory = work.appendingPathComponent("out-\(pass)").path
            let outcome = try PipelineRunner(config: passConfig, pipelineFile: pipeline, showProgress: false, force: true).run()
            try? FileManager.default.removeItem(atPath: passConfig.output.directory)
            return outcome.manifest.records.read
        })
        for stage in report.stages { print(stage.line) }

        if !common.skipPython {
            let python = try measurePython(files: reader.files)
            print(python.line)
            report.python = python
            BenchRunOptions.printSpeedUp(of: "preprocess", stages: report.stages, python: python)
        }
        if let reportJSON = common.reportJSON { try OutputPaths.writeJSON(report, to: reportJSON) }
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
            buffer.removeAll(keepingCapacity: true)
            StrokeTensorEncoder.encode(try config.source.format.prepare(record.drawing, with: &simplifier),
                                       options: options, appendingTo: &buffer)
            count += 1
        }, onRejected: { _ in count += 1 })
        return count
    }

    private func measurePython(files: [String]) throws -> BenchMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [common.python, pythonReference] + files
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
