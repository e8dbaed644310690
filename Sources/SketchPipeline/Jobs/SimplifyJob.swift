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
    /// Stored input bytes consumed.
    package var inputBytes: Int
    /// Bytes written to the output file.
    package var outputBytes: Int
    /// Wall-clock seconds of the run.
    package var seconds: Double
}

/// Raw (or any) Quick, Draw! NDJSON → simplified NDJSON in Google's layout, with quarantine.
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
        let result = try stream.run(SimplifyStage(options: options), quarantinePath: quarantinePath) { lines in
            try file.write(lines)
        }
        try file.commit()
        return SimplifyResult(
            tally: result.tally, rejectedByReason: result.rejectedByReason, inputBytes: result.inputBytes,
            outputBytes: file.bytesWritten, seconds: result.seconds)
    }
}

/// Simplifies each record and appends its line in Google's simplified layout.
struct SimplifyStage: RecordStage {
    var options: SimplificationOptions
    var input: RecordStageInput { .flatPoints }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(simplifier: Simplifier(options: options), lineCount: lineCount)
    }

    struct Batch: RecordStageBatch {
        var simplifier: Simplifier
        var strokes = FlatStrokes()
        private(set) var output: [UInt8] = []

        init(simplifier: Simplifier, lineCount: Int) {
            self.simplifier = simplifier
            output.reserveCapacity(lineCount * 1024)
        }

        mutating func process(
            _ record: SketchRecord, strokes points: FlatStrokes, line: UnsafeBufferPointer<UInt8>,
            location: SourceLocation
        ) throws(StageRejection) {
            try StageRejection.overLimit { () throws(DrawingLimitError) in try simplifier.simplify(points, into: &strokes) }
            SimplifiedNDJSONWriter.encode(record, strokes: strokes, into: &output)
            output.append(0x0A)
        }
    }
}
