import ArgumentParser
import SketchCore
import SketchFormats
import SketchDataset
import SketchPipeline
import SketchRaster

/// `sketchprep bitmap`: Quick, Draw! NDJSON → Google-style bitmaps in one NPY array.
struct BitmapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bitmap",
        abstract: "Render Quick, Draw! drawings to bitmaps like Google's numpy_bitmap files.",
        discussion: """
            Writes uint8 (N, SIZE*SIZE) in input line order: with the defaults (28, line width 16, \
            padding 16, white on black) the rows are byte-identical to Google's numpy_bitmap files. \
            Raw drawings are first simplified with Google's steps (--input-kind auto detects them: a \
            drawing with a t array or a coordinate outside 0–255 is raw). Bad lines are quarantined; \
            the run ends with read = written + rejected. See docs/raster.md.
            """)

    @Argument(help: "Input drawings: NDJSON (raw or simplified, .gz allowed), .bin, stroke-3 .npz, directories of them, or - for stdin.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output .npy file (written atomically).")
    var output: String

    @Option(help: "auto, raw (simplify all) or simplified (render as is).")
    var inputKind = InputFormat.auto

    @OptionGroup(title: "Rendering")
    var raster: StrokeRasterOptionGroup

    @Option(help: "File that receives rejected lines verbatim. (default: OUTPUT with .npy replaced by .rejected.ndjson)")
    var quarantine: String?

    @OptionGroup(title: "Input")
    var input: DrawingInputOptionGroup

    @Flag(name: .shortAndLong, help: "No progress on stderr.")
    var quiet = false

    @OptionGroup var strictness: StrictOption

    func run() throws {
        let quarantinePath = quarantine ?? output.replacingSuffix(".npy", with: ".rejected.ndjson")
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        paths.outputFile(quarantinePath, option: "--quarantine")
        try paths.verify()
        let reader = try input.source(inputs)
        reader.printSkippedSources(tool: "bitmap")
        try OutputPaths.createParentDirectory(of: output)
        let rejected = try QuarantineWriter(path: quarantinePath)
        let side = raster.size
        let writer = try NPYWriter(path: output, dtype: .uint8, itemShape: [side * side])
        let renderer = StrokeRenderer(options: raster.options)
        var simplifier = Simplifier(options: .google)
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: !quiet)
        var tally = RunTally()
        var pixels = [UInt8](repeating: 0, count: side * side)
        try reader.read(
            onRecord: { record, _ in
                let drawing = try inputKind.prepare(record.drawing, with: &simplifier)
                tally.read += 1
                progress.advance()
                pixels.withUnsafeMutableBufferPointer { renderer.render(drawing, into: $0) }
                try writer.append(pixels)
                tally.written += 1
            },
            onRejected: { line in
                progress.advance()
                try tally.reject(line, into: rejected)
            },
            onProgress: { progress.update(bytesConsumed: $0) })
        progress.finish()
        try writer.commit()
        try rejected.finish()
        print("bitmap: \(tally) → \(output) (uint8, shape (\(tally.written), \(side * side)))")
        guard tally.isReconciled else { throw ExitCode.failure }
        try strictness.check(tally, command: "bitmap")
    }
}
