import SketchCore
import SketchDataset
import SketchFormats

/// Quick, Draw! NDJSON → one `.npy` of (N, length, 3) float32 stroke tensors in input line order,
/// its rows' key_id and word in `X.keys.csv` beside it (none for a stream), with quarantine. Runs on `RecordStream`; the output is the same for every job count.
package struct EncodeJob {
    /// The inputs.
    package var reader: DrawingSource
    /// Output `.npy` (written atomically; a stream such as `-` receives it when complete).
    package var outputPath: String
    /// Quarantine file for rejected lines (written atomically when a line is rejected); nil: only
    /// counted and reported.
    package var quarantinePath: String?
    /// Tensor layout (`length` must be set: one `.npy` array has fixed-size rows).
    package var tensor: StrokeTensorOptions
    /// Which drawings are simplified first.
    package var inputFormat: InputFormat
    /// Simplification parameters for the drawings that are simplified.
    package var simplification: SimplificationOptions
    /// Whether to print progress on stderr (the first rejections are printed either way).
    package var showsProgress: Bool
    /// Worker threads; the output bytes do not depend on it.
    package var jobs: Int

    /// Creates a job.
    package init(
        reader: DrawingSource, outputPath: String, quarantinePath: String?, tensor: StrokeTensorOptions,
        inputFormat: InputFormat, simplification: SimplificationOptions, showsProgress: Bool, jobs: Int
    ) {
        self.reader = reader
        self.outputPath = outputPath
        self.quarantinePath = quarantinePath
        self.tensor = tensor
        self.inputFormat = inputFormat
        self.simplification = simplification
        self.showsProgress = showsProgress
        self.jobs = jobs
    }

    /// Runs the encoding; returns the counts and the rows written. Throws only for output failures.
    package func run() throws -> (stream: RecordStreamResult, rows: Int) {
        guard let length = tensor.length else {
            throw PipelineError(.configuration, "encode writes one .npy array: the tensor length must be fixed")
        }
        let writer = try NPYWriter(path: outputPath, dtype: .float32, itemShape: [length, StrokeTensorEncoder.columns])
        let keys = try KeysCSVWriter.path(beside: outputPath).map {
            try KeysCSVWriter(path: $0, header: KeyedStage<StrokeTensorStage>.header)
        }
        let stage = StrokeTensorStage(tensor: tensor, inputFormat: inputFormat, simplification: simplification)
        let result = try RecordStream(reader: reader, jobs: jobs, showsProgress: showsProgress)
            .run(KeyedStage(inner: stage), quarantinePath: quarantinePath) { output in
                try writer.append(output.rows)
                for row in output.keys { try keys?.append(row) }
            }
        if result.tally.commitsOutput {
            try writer.commit()
            try keys?.commit()
        }
        return (result, writer.count)
    }
}

/// Simplifies a drawing where `inputFormat` says so and appends its stroke tensor.
struct StrokeTensorStage: RecordStage {
    var tensor: StrokeTensorOptions
    var inputFormat: InputFormat
    var simplification: SimplificationOptions
    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(stage: self, format: format, simplifier: Simplifier(options: simplification), lineCount: lineCount)
    }

    struct Batch: EncodingBatch {
        let stage: StrokeTensorStage
        /// The format of the batch's input (`InputFormat.needsSimplification(_:readAs:)`).
        let format: DrawingFileFormat
        var simplifier: Simplifier
        private(set) var output: [Float] = []

        init(stage: StrokeTensorStage, format: DrawingFileFormat, simplifier: Simplifier, lineCount: Int) {
            self.stage = stage
            self.format = format
            self.simplifier = simplifier
            output.reserveCapacity(lineCount * (stage.tensor.length ?? 0) * StrokeTensorEncoder.columns)
        }

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            StrokeTensorEncoder.encode(try prepare(record), options: stage.tensor, appendingTo: &output)
        }

        mutating func prepare(_ record: SketchRecord) throws(StageRejection) -> Drawing {
            try StageRejection.overLimit { () throws(DrawingLimitError) in
                try stage.inputFormat.prepare(record, readAs: format, with: &simplifier)
            }
        }

        /// The `(rows, 3)` tensor of `drawing`.
        func encode(_ drawing: Drawing, of record: SketchRecord, line: RecordLine) -> StrokeTensor {
            StrokeTensorEncoder.encode(drawing, options: stage.tensor)
        }
    }
}
