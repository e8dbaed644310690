import SketchCore
import SketchDataset
import SketchFormats

/// Simplifies a drawing where `inputFormat` says so, reduces each stroke by Ramer–Douglas–Peucker
/// at `epsilon` when set (as sketch-rnn's data was made) and encodes its stroke-3 rows: int16 with
/// positions rounded, stored as float32 payloads, or, for records of the chunks `float64Chunks`
/// (float64 stroke-3 files) when no `elementType` is asked for, float64 as they are. A drawing
/// beyond int16 once rounded is refused.
struct Stroke3Stage: RecordStage {
    var epsilon: Double?
    var elementType: Stroke3ElementType?
    var inputFormat: InputFormat
    var simplification: SimplificationOptions
    /// The chunks read from float64 stroke-3 files.
    var float64Chunks: Set<Int>
    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        makeBatch(lineCount: lineCount, format: format, chunk: -1)
    }

    func makeBatch(lineCount: Int, format: DrawingFileFormat, chunk: Int) -> Batch {
        Batch(
            stage: self, format: format, simplifier: Simplifier(options: simplification),
            keepsFloat64: elementType == nil && float64Chunks.contains(chunk))
    }

    struct Batch: EncodingBatch {
        let stage: Stroke3Stage
        /// The format of the batch's input (`InputFormat.needsSimplification(_:readAs:)`).
        let format: DrawingFileFormat
        var simplifier: Simplifier
        /// Whether the rows stay float64 (float64 input, no element type asked for).
        let keepsFloat64: Bool
        private(set) var output: [TensorPayload] = []

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            output.append(try encode(prepare(record), of: record, line: line))
        }

        mutating func prepare(_ record: SketchRecord) throws(StageRejection) -> Drawing {
            try StageRejection.overLimit { () throws(DrawingLimitError) in
                try stage.inputFormat.prepare(record, readAs: format, with: &simplifier)
            }
        }

        /// The `(rows, 3)` stroke-3 rows of `drawing`.
        func encode(_ drawing: Drawing, of record: SketchRecord, line: RecordLine) throws(StageRejection) -> TensorPayload {
            var reduced = record
            reduced.drawing = stage.epsilon.map { RamerDouglasPeucker(epsilon: $0).reduce(drawing) } ?? drawing
            if keepsFloat64 {
                let array = Stroke3.array(of: reduced.drawing, exactDeltas: line.stroke3Deltas)
                return .float64(array.values, shape: [array.rows, 3])
            }
            do throws(FormatError) {
                let array = try Stroke3.int16Array(of: reduced.drawing)
                return .float32(array.values.map(Float.init), shape: [array.rows, 3])
            } catch {
                throw StageRejection(error.reason)
            }
        }
    }
}
