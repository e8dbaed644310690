import ArgumentParser
import Foundation
import SketchCore
import SketchFormats

/// `sketchprep-benchmarks read-decode` (run by `Benchmarks/Scripts/bench_formats.py`): the CPU
/// cost of reading and decoding one input next to NDJSON holding the same drawings, in this
/// process on one thread (`DrawingSource.readFlat`, the engine's batch readers and plug-in
/// decoders, with a body that only counts records and points). Runs alternate NDJSON and the
/// format for `--pairs` pairs; prints one JSON object: each side's median CPU seconds, the
/// drawings read, and the median of the pairs' ratios (NDJSON's CPU seconds over the format's).
struct BenchReadDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-decode",
        abstract: "CPU seconds of reading + decoding an input next to NDJSON of the same drawings (one thread, in process).")

    @Option(help: "NDJSON input (file or directory) holding the same drawings.")
    var ndjson: String

    @Option(help: "The input (file or directory) of the format measured.")
    var input: String

    @Option(help: "Alternating NDJSON / format pairs; the median is reported.")
    var pairs = 5

    func validate() throws {
        if pairs < 1 { throw ValidationError("--pairs must be ≥ 1") }
    }

    func run() throws {
        var ndjsonSeconds: [Double] = []
        var formatSeconds: [Double] = []
        var ratios: [Double] = []
        var counts = (ndjson: 0, format: 0)
        for _ in 0..<pairs {
            let (ndjsonCount, ndjsonCPU) = try Self.readDecode(ndjson)
            let (formatCount, formatCPU) = try Self.readDecode(input)
            counts = (ndjsonCount, formatCount)
            ndjsonSeconds.append(ndjsonCPU)
            formatSeconds.append(formatCPU)
            ratios.append(ndjsonCPU / formatCPU)
        }
        guard counts.ndjson == counts.format else {
            throw BenchmarkError("\(input) holds \(counts.format) drawings, \(ndjson) \(counts.ndjson): not the same drawings")
        }
        let report: [String: Any] = [
            "drawings": counts.format, "ndjson_cpu_seconds": Self.median(ndjsonSeconds),
            "cpu_seconds": Self.median(formatSeconds), "vs_ndjson": Self.median(ratios),
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// Records read from `input` (every record valid) and the CPU seconds the read took.
    static func readDecode(_ input: String) throws -> (Int, Double) {
        let source = try DrawingSource(inputs: [input])
        let start = ResourceUsage.current().cpuSeconds
        var records = 0
        var points = 0
        var rejected = 0
        try source.readFlat(
            onRecord: { _, strokes, _ in
                records += 1
                points &+= strokes.x.count
            }, onRejected: { _ in rejected += 1 })
        let seconds = ResourceUsage.current().cpuSeconds - start
        guard rejected == 0, points > 0 else { throw BenchmarkError("\(input): \(rejected) records rejected, \(points) points read") }
        return (records, seconds)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
