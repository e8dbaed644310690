import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// What a simplify run did.
package struct SimplifyResult: Sendable {
    /// Reconciled counts.
    package var tally: RecordCounts
    /// Rejections grouped by reason kind (see `QuarantineWriter.countsByReason`).
    package var rejectedByReason: [String: Int]
    /// Written records that were already simplified (`InputFormat.needsSimplification(_:readAs:)`)
    /// and were copied through unchanged; the others were simplified.
    package var copied: Int
    /// Of the `copied` records, those whose points are not in Google's simplified form by the
    /// one rule (`SketchRecord.kind`: stroke-3 input, taken as it is, or `--input-format
    /// simplified` over raw drawings): the caller says so, since the output is not simplified.
    package var copiedUnsimplified: Int
    /// Stored input bytes consumed.
    package var inputBytes: Int
    /// Bytes written to the output file.
    package var outputBytes: Int
    /// Wall-clock seconds of the run.
    package var seconds: Double

    /// What the user is to be told about the output beside the counts.
    package var warnings: [String] {
        guard copiedUnsimplified > 0 else { return [] }
        return [
            "\(copiedUnsimplified) of the copied drawings are not in Google's simplified form (a t array or a coordinate "
                + "that is not an integer in 0…255): stroke-3 input is taken as it is, and so is every drawing under "
                + "--input-format simplified; --input-format raw simplifies them"
        ]
    }
}

/// Quick, Draw! drawings → simplified NDJSON in Google's layout, with quarantine. Drawings that
/// `inputFormat` says are raw are simplified; the others (Google's simplified files, `.bin`) are
/// copied through with their points unchanged, so simplifying simplified input changes nothing.
///
/// Runs on `RecordStream`: batches of lines are simplified on `jobs` threads and written in input
/// order, so the output is the same for every job count and memory stays flat whatever the input size.
package struct SimplifyJob {
    /// The inputs (timestamps are not read: the output has none).
    package var reader: DrawingSource
    /// Output file (written atomically; `-` streams to standard output).
    package var outputPath: String
    /// Quarantine file for rejected lines (written atomically when a line is rejected); nil: only
    /// counted and reported.
    package var quarantinePath: String?
    /// Simplification parameters.
    package var options: SimplificationOptions
    /// Which drawings are simplified (`--input-format`); the others are copied through.
    package var inputFormat = InputFormat.auto
    /// Whether to print progress and rejection messages on stderr.
    package var showsProgress: Bool
    /// Worker threads; the output bytes do not depend on it.
    package var jobs: Int
    /// Lines per batch, the unit of parallel work.
    package var linesPerBatch = 1024

    /// Creates a job.
    package init(
        reader: DrawingSource, outputPath: String, quarantinePath: String?,
        options: SimplificationOptions = .google, showsProgress: Bool = true, jobs: Int = 1
    ) {
        self.reader = reader
        self.reader.keepsTimestamps = false
        self.outputPath = outputPath
        self.quarantinePath = quarantinePath
        self.options = options
        self.showsProgress = showsProgress
        self.jobs = jobs
    }

    /// Runs the conversion; throws only for output failures (bad input lines are quarantined).
    package func run() throws -> SimplifyResult {
        let file = try AtomicFileWriter(path: outputPath)
        var stream = RecordStream(reader: reader, jobs: jobs, showsProgress: showsProgress)
        stream.linesPerBatch = linesPerBatch
        stream.printsRejections = showsProgress
        var (copied, copiedUnsimplified) = (0, 0)
        let result = try stream.run(SimplifyStage(options: options, inputFormat: inputFormat), quarantinePath: quarantinePath) { batch in
            try file.write(batch.lines)
            copied += batch.copied
            copiedUnsimplified += batch.copiedUnsimplified
        }
        if result.tally.commitsOutput { try file.commit() }
        return SimplifyResult(
            tally: result.tally, rejectedByReason: result.rejectedByReason, copied: copied, copiedUnsimplified: copiedUnsimplified,
            inputBytes: result.inputBytes,
            outputBytes: file.bytesWritten, seconds: result.seconds)
    }
}

/// Simplifies each record that `inputFormat` says is raw, copies the others' points, and appends
/// its line in Google's simplified layout.
struct SimplifyStage: RecordStage {
    var options: SimplificationOptions
    var inputFormat: InputFormat
    var input: RecordStageInput { .flatPoints }

    /// One batch's lines, how many of them were copied through, and how many of those are not in
    /// Google's simplified form.
    struct SimplifiedLines: Sendable {
        var lines: [UInt8] = []
        var copied = 0
        var copiedUnsimplified = 0
    }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(simplifier: Simplifier(options: options), inputFormat: inputFormat, format: format, lineCount: lineCount)
    }

    struct Batch: RecordStageBatch {
        var simplifier: Simplifier
        let inputFormat: InputFormat
        /// The format of the batch's input.
        let format: DrawingFileFormat
        var strokes = FlatStrokes()
        private(set) var output = SimplifiedLines()

        init(simplifier: Simplifier, inputFormat: InputFormat, format: DrawingFileFormat, lineCount: Int) {
            self.simplifier = simplifier
            self.inputFormat = inputFormat
            self.format = format
            output.lines.reserveCapacity(lineCount * 1024)
        }

        mutating func process(
            _ record: SketchRecord, strokes points: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            if inputFormat.needsSimplification(record, readAs: format) {
                try StageRejection.overLimit { () throws(DrawingLimitError) in try simplifier.simplify(points, into: &strokes) }
                SimplifiedNDJSONWriter.encode(record, strokes: strokes, into: &output.lines)
            } else {
                SimplifiedNDJSONWriter.encode(record, strokes: points, into: &output.lines)
                output.copied += 1
                if record.kind == .raw { output.copiedUnsimplified += 1 }
            }
            output.lines.append(0x0A)
        }
    }
}
