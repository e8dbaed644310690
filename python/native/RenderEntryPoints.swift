import SketchCore
import SketchPipeline
import SketchRaster

/// The C ABI of `sketchprep.bitmap` and `sketchprep.raster`: the renderers of `sketchprep bitmap`
/// (`StrokeRenderer`, Google's `GoogleBitmapRenderer` recipe at its defaults, and
/// `TimeChannelRenderer`) over a batch in the `StrokeBatch` layout, with the command's option checks
/// and its raw-or-simplified rule (`InputFormat`).

/// Renders every drawing of the batch into `output` (`drawingCount × side × side × channels`
/// bytes, 1 channel without `channels`). `t` (optional, same stride as `x`) gives the times the
/// `time` and `speed` channels need. A refused drawing's bytes are zero and it is listed as a
/// failure with the reason the CLI quarantines it with.
@_cdecl("sketchprep_render")
public func sketchprepRender(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ t: UnsafePointer<Double>?, _ stride: Int64, _ pointCount: Int64,
    _ strokeOffsets: UnsafePointer<Int64>?, _ strokeCount: Int64,
    _ drawingOffsets: UnsafePointer<Int64>?, _ drawingCount: Int64,
    _ side: Int64, _ lineWidth: Double, _ padding: Double, _ polarity: UnsafePointer<CChar>?,
    _ channels: UnsafePointer<CChar>?, _ inputFormat: UnsafePointer<CChar>?, _ output: UnsafeMutablePointer<UInt8>?,
    _ sizes: UnsafeMutablePointer<Int64>
) -> UnsafeMutableRawPointer {
    guard let polarity = RasterPolarity(rawValue: CText.optional(polarity) ?? "") else {
        let names = RasterPolarity.allCases.map(\.rawValue).joined(separator: ", ")
        return BatchResult(refusing: "polarity must be one of \(names)").reporting(to: sizes)
    }
    guard let inputFormat = InputFormat(rawValue: CText.optional(inputFormat) ?? "") else {
        let names = InputFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return BatchResult(refusing: "input_format must be one of \(names)").reporting(to: sizes)
    }
    let options = StrokeRenderOptions(
        side: Int(clamping: side), lineWidth: lineWidth, padding: padding, polarity: polarity)
    if let problem = options.validationProblem(naming: { $0.replacingDashes }) {
        return BatchResult(refusing: problem).reporting(to: sizes)
    }
    var timeChannels: [TimeChannel] = []
    if let list = CText.optional(channels) {
        guard let parsed = TimeChannel.parsedList(list) else {
            return BatchResult(refusing: "channels takes \(TimeChannel.listRule)").reporting(to: sizes)
        }
        timeChannels = parsed
    }
    let batch: StrokeBatch
    switch StrokeBatch.make(
        x: x, y: y, stride: stride, pointCount: pointCount, strokeOffsets: strokeOffsets, strokeCount: strokeCount,
        drawingOffsets: drawingOffsets, drawingCount: drawingCount)
    {
    case .failure(let error): return BatchResult(refusing: error.reason).reporting(to: sizes)
    case .success(let made): batch = made
    }
    if batch.count == 0 { return BatchResult().reporting(to: sizes) }
    guard let output else { return BatchResult(refusing: "missing output array").reporting(to: sizes) }
    let bytesPerDrawing = options.side * options.side * max(timeChannels.count, 1)
    let result = BatchResult()
    let renderer = timeChannels.isEmpty ? StrokeRenderer(options: options) : nil
    let timeRenderer = timeChannels.isEmpty ? nil : TimeChannelRenderer(options: options, channels: timeChannels)
    var simplifier = Simplifier(options: .google)
    var strokes = FlatStrokes()
    for index in 0..<batch.count {
        // Each renderer writes every byte of its image; a refused drawing's are zeroed below.
        let pixels = UnsafeMutableBufferPointer(start: output + index * bytesPerDrawing, count: bytesPerDrawing)
        do throws(DrawingLimitError) {
            try batch.drawing(index, bound: DrawingLimits.maximumCoordinateMagnitude, into: &strokes)
            // Only `auto` reads the record's kind (`InputFormat.needsSimplification`): the others skip its scan.
            let record = SketchRecord(
                word: "", countryCode: "", timestamp: "", recognized: true, keyID: "",
                drawing: batch.timedDrawing(index, from: strokes, times: t),
                kind: inputFormat == .auto ? nil : .simplified)
            if let timeRenderer {
                let bytes = try timeRenderer.render(record.drawing)
                _ = pixels.update(fromContentsOf: bytes)
            } else if let renderer {
                let drawing = try inputFormat.prepare(record, readAs: .ndjson, with: &simplifier)
                try renderer.render(drawing, into: pixels)
            }
        } catch {
            pixels.update(repeating: 0)
            result.fail(index, error.reason)
        }
    }
    return result.reporting(to: sizes)
}

extension String {
    /// `line-width` as Python spells it: `line_width`.
    fileprivate var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}

extension StrokeBatch {
    /// Drawing `index` (its points already in `strokes`) with each stroke's times from `times`
    /// (same layout as the points), or without times when `times` is nil; a stroke whose first
    /// time is NaN has none (the caller's mark for a stroke given without times).
    func timedDrawing(_ index: Int, from strokes: FlatStrokes, times: UnsafePointer<Double>?) -> Drawing {
        var drawing = strokes.drawing
        guard let times else { return drawing }
        let first = Int(drawingOffsets[index])
        for number in drawing.strokes.indices {
            let start = Int(strokeOffsets[first + number])
            guard !times[start * stride].isNaN else { continue }
            drawing.strokes[number].t = (0..<drawing.strokes[number].count).map { times[(start + $0) * stride] }
        }
        return drawing
    }
}
