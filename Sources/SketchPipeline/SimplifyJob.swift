import SketchFormats
import SketchDataset
import SketchCore

/// What a simplify run did.
public struct SimplifyResult: Sendable {
    /// Reconciled counts.
    public var tally: RunTally
    /// Rejections grouped by reason kind (see `QuarantineWriter.countsByReason`).
    public var rejectedByReason: [String: Int]
    /// Stored input bytes consumed.
    public var inputBytes: Int
    /// Bytes written to the output file.
    public var outputBytes: Int
    /// Wall-clock seconds of the run.
    public var seconds: Double
}

/// Raw (or any) Quick, Draw! NDJSON → simplified NDJSON in Google's layout, with quarantine.
///
/// Streams: one record in memory at a time, so memory stays flat whatever the input size.
public struct SimplifyJob {
    /// The inputs (timestamps are not read: the output has none).
    public var reader: QuickDrawReader
    /// Output file (written atomically).
    public var outputPath: String
    /// Quarantine file for rejected lines (written atomically, possibly empty).
    public var quarantinePath: String
    /// Simplification parameters.
    public var options: SimplificationOptions
    /// Whether to print progress and rejection messages on stderr.
    public var showsProgress: Bool

    /// Creates a job.
    public init(reader: QuickDrawReader, outputPath: String, quarantinePath: String,
                options: SimplificationOptions = .google, showsProgress: Bool = true) {
        self.reader = reader
        self.reader.keepsTimestamps = false
        self.outputPath = outputPath
        self.quarantinePath = quarantinePath
        self.options = options
        self.showsProgress = showsProgress
    }

    /// Runs the conversion; throws only for output failures (bad input lines are quarantined).
    public func run() throws -> SimplifyResult {
        var simplifier = Simplifier(options: options)
        let writer = try SimplifiedNDJSONWriter(path: outputPath)
        let quarantine = try QuarantineWriter(path: quarantinePath, maximumMessages: showsProgress ? 20 : 0)
        let progress = ProgressReporter(unit: "drawings", totalBytes: reader.inputByteCount, enabled: showsProgress)
        var strokes = FlatStrokes()
        var tally = RunTally()
        var inputBytes = 0
        try reader.readFlat(
            onRecord: { record, points, _ in
                try simplifier.simplify(points, into: &strokes)
                tally.read += 1
                try writer.write(record, strokes: strokes)
                tally.written += 1
                progress.advance()
            },
            onRejected: { rejected in
                try tally.reject(rejected, into: quarantine)
            },
            onProgress: { bytes in
                inputBytes = bytes
                progress.update(bytesConsumed: bytes)
            })
        try writer.commit()
        try quarantine.finish()
        progress.finish()
        return SimplifyResult(tally: tally, rejectedByReason: quarantine.countsByReason, inputBytes: inputBytes,
                              outputBytes: writer.bytesWritten, seconds: progress.elapsedSeconds)
    }
}
