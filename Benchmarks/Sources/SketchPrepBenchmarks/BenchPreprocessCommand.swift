import ArgumentParser
import Foundation

/// `sketchprep-benchmarks preprocess`: raw → stroke-tensor shards throughput of
/// `sketchprep preprocess` next to the Python reference.
struct BenchPreprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preprocess",
        abstract: "Raw→stroke-tensor-shards throughput of `sketchprep preprocess` next to the Python reference.",
        discussion: """
            1. `sketchprep preprocess --pipeline PIPELINE` on the inputs into a fresh temporary \
            directory (simplify, encode, split, shuffle, NPY shards, SHA-256 of sources and shards, \
            manifest), as a child, --passes times.
            2. The Python reference script on the same inputs (json, numpy simplification, numpy \
            recipe, np.save), as a child, --passes times.
            Both children are timed the same way (wall clock; CPU time and peak RSS from wait4); the \
            pass with the least CPU time counts. The speed-up is drawings per CPU second over the \
            Python reference's. Temporary files are deleted.
            """)

    @Option(help: "Pipeline whose encode, split and output settings are measured.")
    var pipeline = "Pipelines/quickdraw-rnn.yaml"

    @Option(
        name: .customLong("python-reference"),
        help: "Python reference script, run as SCRIPT INPUT... (prints one JSON line with `drawings`).")
    var pythonReference = "Benchmarks/Scripts/bench_preprocess_reference.py"

    @Argument(
        help:
            "Raw NDJSON inputs. (default: $SKETCHPREP_SHARED/quickdraw/raw, SKETCHPREP_SHARED defaulting to ../shared/data; else SampleData/quickdraw/raw)"
    )
    var inputs: [String] = []

    @OptionGroup var common: BenchRunOptions

    func run() throws {
        let inputs = BenchRunOptions.rawInputs(inputs)
        let work = try common.makeWorkDirectory(named: "bench-preprocess")
        defer { try? FileManager.default.removeItem(at: work) }
        let bytes = try inputs.reduce(0) { total, path in total + (try Self.byteCount(of: path)) }
        print(
            "bench preprocess: \(inputs.joined(separator: " ")), \(BenchRunOptions.megabytes(bytes)) MB, "
                + "pipeline \(pipeline), best of \(common.passes) passes")

        printToStandardError("bench preprocess: running the Python reference \(pythonReference)")
        let pythonOutput = work.appendingPathComponent("python.json")
        var python = try common.bestChildPass(
            stage: "Python reference (json + numpy, tensors)", drawings: 0, bytes: bytes,
            standardOutput: pythonOutput.path
        ) { _ in
            [common.python, pythonReference] + inputs
        }
        python.drawings = try JSONDecoder().decode(PythonCounts.self, from: Data(contentsOf: pythonOutput)).drawings

        var command = try common.bestChildPass(stage: "sketchprep preprocess (child)", drawings: python.drawings, bytes: bytes) { pass in
            let output = work.appendingPathComponent("out-\(pass)").path
            return [common.sketchprep, "preprocess", "--pipeline", pipeline, "--quiet", "--output", output]
                + inputs.flatMap { ["--input", $0] }
        }
        command.drawings = try Self.recordsRead(manifest: work.appendingPathComponent("out-0/manifest.json"))
        print(command.line)
        print(python.line)
        var report = BenchPreprocessReport(inputs: inputs, inputBytes: bytes, pipeline: pipeline)
        report.stages = [command]
        report.python = python
        try common.finish(
            report, benchmark: "preprocess",
            speedUps: [
                "preprocess_command_cpu": command.drawingsPerCPUSecond / python.drawingsPerCPUSecond
            ])
    }

    /// Bytes of a file, or of the `.ndjson` files directly in a directory.
    private static func byteCount(of path: String) throws -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BenchmarkError("\(path): no such input file or directory")
        }
        let files =
            isDirectory.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".ndjson") }.map { "\(path)/\($0)" }
            : [path]
        return try files.reduce(0) { total, file in
            total + ((try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }

    /// `records.read` of the manifest `sketchprep preprocess` wrote.
    private static func recordsRead(manifest: URL) throws -> Int {
        struct Manifest: Decodable {
            struct Records: Decodable { var read: Int }
            var records: Records
        }
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifest)).records.read
    }

    private struct PythonCounts: Decodable { var drawings: Int }
}

/// The `--report-json` document of `preprocess`.
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
