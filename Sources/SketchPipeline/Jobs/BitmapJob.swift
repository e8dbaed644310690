import SketchCore
import SketchDataset
import SketchFormats
import SketchRaster

/// Quick, Draw! NDJSON → one `.npy` of uint8 (N, side²) bitmaps in input line order (Google's
/// numpy_bitmap layout with the default options), its rows' key_id and word in `X.keys.csv` beside
/// it (none for a stream), with quarantine. Runs on `RecordStream`; the
/// output is the same for every job count.
package struct BitmapJob {
    /// The inputs.
    package var reader: DrawingSource
    /// Output `.npy` (written atomically; a stream such as `-` receives it when complete).
    package var outputPath: String
    /// Quarantine file for rejected lines (written atomically when a line is rejected); nil: only
    /// counted and reported.
    package var quarantinePath: String?
    /// Geometry and colours.
    package var render: StrokeRenderOptions
    /// Which drawings are simplified (with Google's steps) first.
    package var inputFormat: InputFormat
    /// Whether to print progress on stderr (the first rejections are printed either way).
    package var showsProgress: Bool
    /// Worker threads; the output bytes do not depend on it.
    package var jobs: Int
    /// Time-encoding channels (1 or 3; `TimeChannelRenderer`): `(N, side, side, C)` instead of
    /// Google's `(N, side²)` gray bitmaps; empty for those.
    package var timeChannels: [TimeChannel] = []

    /// Creates a job.
    package init(
        reader: DrawingSource, outputPath: String, quarantinePath: String?, render: StrokeRenderOptions,
        inputFormat: InputFormat, showsProgress: Bool, jobs: Int
    ) {
        self.reader = reader
        self.outputPath = outputPath
        self.quarantinePath = quarantinePath
        self.render = render
        self.inputFormat = inputFormat
        self.showsProgress = showsProgress
        self.jobs = jobs
    }

    /// Renders every drawing; returns the counts. Throws only for output failures.
    package func run() throws -> RecordStreamResult {
        let itemShape = timeChannels.isEmpty ? [render.side * render.side] : [render.side, render.side, timeChannels.count]
        let writer = try NPYWriter(path: outputPath, dtype: .uint8, itemShape: itemShape)
        let keys = try KeysCSVWriter.path(beside: outputPath).map {
            try KeysCSVWriter(path: $0, header: KeyedStage<BitmapRenderStage>.header)
        }
        var stream = RecordStream(reader: reader, jobs: jobs, showsProgress: showsProgress)
        stream.linesPerBatch = BatchSizing.records(bytesPerRecord: itemShape.reduce(1, *), maximum: stream.linesPerBatch)
        let write = { (output: (rows: [UInt8], keys: [[String]])) throws in
            try writer.append(output.rows)
            for row in output.keys { try keys?.append(row) }
        }
        let result =
            timeChannels.isEmpty
            ? try stream.run(
                KeyedStage(inner: BitmapRenderStage(render: render, inputFormat: inputFormat)), quarantinePath: quarantinePath, write: write
            )
            : try stream.run(
                KeyedStage(inner: TimeChannelStage(render: render, channels: timeChannels)), quarantinePath: quarantinePath, write: write)
        if result.tally.commitsOutput {
            try writer.commit()
            try keys?.commit()
        }
        return result
    }
}

/// Renders each drawing's time-encoding channels (`TimeChannelRenderer`, raw strokes aligned and
/// scaled; `inputFormat` does not apply) and appends the `(side, side, channels)` bytes.
struct TimeChannelStage: RecordStage {
    var render: StrokeRenderOptions
    var channels: [TimeChannel]
    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch {
        Batch(renderer: TimeChannelRenderer(options: render, channels: channels))
    }

    struct Batch: EncodingBatch {
        let renderer: TimeChannelRenderer
        private(set) var output: [UInt8] = []

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            output += try encode(prepare(record), of: record, line: line)
        }

        /// The raw drawing: the channels are drawn from the raw strokes, aligned and scaled.
        func prepare(_ record: SketchRecord) -> Drawing { record.drawing }

        /// The `(side, side, channels)` bytes.
        func encode(_ drawing: Drawing, of record: SketchRecord, line: RecordLine) throws(StageRejection) -> [UInt8] {
            try StageRejection.overLimit { () throws(DrawingLimitError) in try renderer.render(drawing) }
        }
    }
}

/// Simplifies a drawing where `inputFormat` says so (with `simplification`: Google's steps for
/// the `bitmap` command) and appends its rendered pixels.
struct BitmapRenderStage: RecordStage {
    var render: StrokeRenderOptions
    var inputFormat: InputFormat
    var simplification = SimplificationOptions.google
    var input: RecordStageInput { .drawings }

    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch { Batch(stage: self, format: format, lineCount: lineCount) }

    struct Batch: EncodingBatch {
        let stage: BitmapRenderStage
        /// The format of the batch's input (`InputFormat.needsSimplification(_:readAs:)`).
        let format: DrawingFileFormat
        let renderer: StrokeRenderer
        var simplifier: Simplifier
        private(set) var output: [UInt8] = []

        init(stage: BitmapRenderStage, format: DrawingFileFormat, lineCount: Int) {
            self.stage = stage
            self.format = format
            renderer = StrokeRenderer(options: stage.render)
            simplifier = Simplifier(options: stage.simplification)
            output.reserveCapacity(lineCount * stage.render.side * stage.render.side)
        }

        mutating func prepare(_ record: SketchRecord) throws(StageRejection) -> Drawing {
            try StageRejection.overLimit { () throws(DrawingLimitError) in
                try stage.inputFormat.prepare(record, readAs: format, with: &simplifier)
            }
        }

        /// The `side × side` gray pixels.
        func encode(_ drawing: Drawing, of record: SketchRecord, line: RecordLine) throws(StageRejection) -> [UInt8] {
            try StageRejection.overLimit { () throws(DrawingLimitError) in try renderer.render(drawing) }
        }

        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SourceLocation
        ) throws(StageRejection) {
            let drawing = try prepare(record)
            let pixels = stage.render.side * stage.render.side
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: pixels))
            do throws(DrawingLimitError) {
                try output.withUnsafeMutableBufferPointer { (buffer) throws(DrawingLimitError) in
                    try renderer.render(drawing, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
                }
            } catch {
                output.removeSubrange(start...)
                throw StageRejection(error)
            }
        }
    }
}
