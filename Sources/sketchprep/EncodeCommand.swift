import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline

extension SequenceSide: ExpressibleByArgument {}

/// `sketchprep encode`: Quick, Draw! NDJSON → one `.npy` of stroke tensors in input line order.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode drawings as (N, 75, 3) float32 stroke tensors in one .npy, in input line order.",
        discussion: """
        The book's recipe (docs/tensors.md): points (x, y, end-of-stroke), per-axis min-max \
        normalisation to [0, 1], deltas, first 75 rows kept, zero rows padded at the front; all \
        float32. Raw drawings (strokes with timestamps) are simplified first with Google's steps. \
        Unusable lines go to the quarantine file and are reported; the run reconciles \
        read = written + rejected.
        """)

    @Argument(help: "Input drawings: NDJSON (raw or simplified, .gz allowed), .bin, stroke-3 .npz, directories of them, or - for stdin.")
    var inputs: [String]

    @Option(name: [.short, .customLong("output")], help: "Output .npy file.")
    var output: String

    @Option(help: "Rows per tensor.")
    var length = 75

    @Option(help: "Where zero rows go when a drawing is shorter: front or back.")
    var padding: SequenceSide = .front

    @Option(help: "Where rows are dropped when a drawing is longer: back (keep the first rows) or front (keep the last).")
    var truncation: SequenceSide = .back

    @Option(name: .customLong("input-format"), help: "auto (simplify drawings with timestamps or coordinates outside 0–255), raw (always simplify) or simplified (never).")
    var inputFormat: InputFormat = .auto

    @Option(help: "Quarantine file for rejected lines. (default: OUTPUT with .npy replaced by .rejected.ndjson)")
    var quarantine: String?

    @OptionGroup var strictness: StrictOption

    @OptionGroup(title: "Simplification of raw input")
    var simplification: SimplificationOptionGroup

    @OptionGroup(title: "Input")
    var input: DrawingInputOptionGroup

    @Flag(name: .shortAndLong, help: "Do not print progress on stderr.")
    var quiet = false

    /// Bytes of tensor rows held before they are written (docs/limits.md).
    static let batchBytes = 4 << 20

    func validate() throws {
        guard (1...100_000).contains(length) else { throw ValidationError("--length must be between 1 and 100000, as encode.length in a pipeline") }
    }

    func run() throws {
        let quarantinePath = quarantine ?? output.replacingSuffix(".npy", with: ".rejected.ndjson")
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        paths.outputFile(quarantinePath, option: "--quarantine")
        try paths.verify()
        let reader = try input.source(inputs)
        reader.printSkippedSources(tool: "encode")
        try OutputPaths.createParentDirectory(of: output)
        let quarantineWriter = try QuarantineWriter(path: quarantinePath)
        let writer = try NPYWriter(path: output, dtype: .float32, itemShape: [length, StrokeTensorEncoder.columns])
        let options = StrokeTensorOptions(length: length, paddingSide: padding, truncationSide: truncation)
        var simplifier = Simplifier(options: simplification.options)
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: !quiet)
        var tally = RunTally()
        var batch: [Float] = []
        // Rows are written in batches of about `batchBytes`, whatever the row length.
        let rowValues = length * StrokeTensorEncoder.columns
        let batchRows = max(1, Self.batchBytes / (rowValues * MemoryLayout<Float>.size))
        batch.reserveCapacity(batchRows * rowValues)

        try reader.read(
            onRecord: { record, _ in
                let drawing = try inputFormat.prepare(record.drawing, with: &simplifier)
                tally.read += 1
                StrokeTensorEncoder.encode(drawing, options: options, appendingTo: &batch)
                tally.written += 1
                if batch.count >= batchRows * rowValues {
                    try writer.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
                progress.advance()
            },
            onRejected: { rejected in
                try tally.reject(rejected, into: quarantineWriter)
                progress.advance()
            },
            onProgress: { progress.update(bytesConsumed: $0) })
        try writer.append(batch)
        progress.finish()
        try quarantineWriter.finish()
        try writer.commit()
        printToStandardError("encode: \(tally) → \(output) (\(writer.count) × \(length) × 3 float32)")
        guard tally.isReconciled else { throw CommandError("record counts do not reconcile: \(tally)") }
        try strictness.check(tally, command: "encode")
    }
}
