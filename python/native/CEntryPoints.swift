import SketchCore

/// The C ABI of the Python package (`sketchprep._native` loads it with ctypes). Every entry
/// point here takes the caller's arrays in the `StrokeBatch` layout (`x`, `y`, `stride`, the point
/// count, the stroke offsets and count, the drawing offsets and count), checks them, writes the
/// result's sizes to `sizes` (points, strokes, drawings, refused drawings, 1 when the whole
/// call was refused), and returns a `BatchResult` pointer that the caller reads with the
/// `sketchprep_result_*` functions and frees with `sketchprep_result_free`. Nothing traps on the
/// caller's values: bad options or layouts set the result's message, bad drawings are listed as
/// failures and the others still processed. The functions keep no global state, so they may run
/// on several threads at once (ctypes releases the GIL during each call). One drawing from
/// Python lists has its own entry point (OneDrawingEntryPoints.swift).

/// Google's simplification of every drawing of the batch (the rule of `sketchprep simplify`,
/// with the same option bounds and drawing limits).
@_cdecl("sketchprep_simplify")
public func sketchprepSimplify(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ stride: Int64, _ pointCount: Int64,
    _ strokeOffsets: UnsafePointer<Int64>?, _ strokeCount: Int64,
    _ drawingOffsets: UnsafePointer<Int64>?, _ drawingCount: Int64,
    _ epsilon: Double, _ resampleStep: Double, _ scaleTarget: Double, _ sizes: UnsafeMutablePointer<Int64>
) -> UnsafeMutableRawPointer {
    simplify(
        x, y, stride, pointCount, strokeOffsets, strokeCount, drawingOffsets, drawingCount,
        SimplificationOptions(scaleTarget: scaleTarget, resampleStep: resampleStep, epsilon: epsilon)
    ).reporting(to: sizes)
}

private func simplify(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ stride: Int64, _ pointCount: Int64,
    _ strokeOffsets: UnsafePointer<Int64>?, _ strokeCount: Int64,
    _ drawingOffsets: UnsafePointer<Int64>?, _ drawingCount: Int64, _ options: SimplificationOptions
) -> BatchResult {
    if let problem = options.validationProblem { return BatchResult(refusing: problem.description) }
    let batch: StrokeBatch
    switch StrokeBatch.make(
        x: x, y: y, stride: stride, pointCount: pointCount, strokeOffsets: strokeOffsets, strokeCount: strokeCount,
        drawingOffsets: drawingOffsets, drawingCount: drawingCount)
    {
    case .failure(let error): return BatchResult(refusing: error.reason)
    case .success(let made): batch = made
    }
    let result = BatchResult()
    var simplifier = Simplifier(options: options)
    var input = FlatStrokes()
    var output = FlatStrokes()
    for index in 0..<batch.count {
        do throws(DrawingLimitError) {
            try batch.drawing(index, bound: DrawingLimits.maximumCoordinateMagnitude, into: &input)
            try simplifier.simplify(input, into: &output)
            if !result.append(output) {
                result.fail(index, "\(DrawingLimits.coordinateOutOfRange): a simplified coordinate is not a 32-bit integer")
            }
        } catch {
            result.fail(index, error.reason)
        }
        result.closeDrawing()
    }
    return result
}

/// The stroke tensor of every drawing of the batch, used as simplified (the recipe of
/// `sketchprep encode --input-format simplified`), written to `output`: `drawingCount × length × 3`
/// float32 values. A refused drawing's rows are zero. `paddingFront` and `truncationBack` choose
/// the sides (non-zero: front padding, keep the first rows).
@_cdecl("sketchprep_encode")
public func sketchprepEncode(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ stride: Int64, _ pointCount: Int64,
    _ strokeOffsets: UnsafePointer<Int64>?, _ strokeCount: Int64,
    _ drawingOffsets: UnsafePointer<Int64>?, _ drawingCount: Int64,
    _ length: Int64, _ paddingFront: Int32, _ truncationBack: Int32, _ output: UnsafeMutablePointer<Float>?,
    _ sizes: UnsafeMutablePointer<Int64>
) -> UnsafeMutableRawPointer {
    encode(
        x, y, stride, pointCount, strokeOffsets, strokeCount, drawingOffsets, drawingCount,
        length, paddingFront != 0, truncationBack != 0, output
    ).reporting(to: sizes)
}

private func encode(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ stride: Int64, _ pointCount: Int64,
    _ strokeOffsets: UnsafePointer<Int64>?, _ strokeCount: Int64,
    _ drawingOffsets: UnsafePointer<Int64>?, _ drawingCount: Int64,
    _ length: Int64, _ paddingFront: Bool, _ truncationBack: Bool, _ output: UnsafeMutablePointer<Float>?
) -> BatchResult {
    guard (1...Int64(maximumTensorLength)).contains(length) else {
        return BatchResult(refusing: "length must be between 1 and \(maximumTensorLength), as encode.length in a pipeline")
    }
    let batch: StrokeBatch
    switch StrokeBatch.make(
        x: x, y: y, stride: stride, pointCount: pointCount, strokeOffsets: strokeOffsets, strokeCount: strokeCount,
        drawingOffsets: drawingOffsets, drawingCount: drawingCount)
    {
    case .failure(let error): return BatchResult(refusing: error.reason)
    case .success(let made): batch = made
    }
    if batch.count == 0 { return BatchResult() }
    guard let output else { return BatchResult(refusing: "missing output array") }
    let options = StrokeTensorOptions(
        length: Int(length), paddingSide: paddingFront ? .front : .back,
        truncationSide: truncationBack ? .back : .front)
    let result = BatchResult()
    let rowValues = Int(length) * StrokeTensorEncoder.columns
    var strokes = FlatStrokes()
    var values: [Float] = []
    values.reserveCapacity(rowValues)
    for index in 0..<batch.count {
        values.removeAll(keepingCapacity: true)
        do throws(DrawingLimitError) {
            try batch.drawing(index, bound: DrawingLimits.maximumSimplifiedCoordinate, into: &strokes)
            StrokeTensorEncoder.encode(strokes.drawing, options: options, appendingTo: &values)
        } catch {
            result.fail(index, error.reason)
            values = Array(repeating: 0, count: rowValues)
        }
        values.withUnsafeBufferPointer { values in
            (output + index * rowValues).update(from: values.baseAddress!, count: rowValues)
        }
    }
    return result
}

/// Longest accepted tensor length: `sketchprep encode --length` and `encode.length`'s bound.
let maximumTensorLength = 100_000

/// Copies the simplified strokes into caller arrays of the reported sizes:
/// `points` (2 × points int32), `strokeOffsets` (strokes + 1), `drawingOffsets` (drawings + 1).
@_cdecl("sketchprep_result_copy")
public func sketchprepResultCopy(
    _ result: UnsafeMutableRawPointer, _ points: UnsafeMutablePointer<Int32>,
    _ strokeOffsets: UnsafeMutablePointer<Int64>, _ drawingOffsets: UnsafeMutablePointer<Int64>
) {
    let result = BatchResult.from(result)
    for (index, value) in result.points.enumerated() { points[index] = value }
    for (index, value) in result.strokeOffsets.enumerated() { strokeOffsets[index] = value }
    for (index, value) in result.drawingOffsets.enumerated() { drawingOffsets[index] = value }
}

/// Why the whole call was refused, or NULL when it was not. Valid until the result is freed.
@_cdecl("sketchprep_result_message")
public func sketchprepResultMessage(_ result: UnsafeMutableRawPointer) -> UnsafePointer<CChar>? {
    UnsafePointer(BatchResult.from(result).message?.pointer)
}

/// The batch index of failure `number` (0 ≤ number < failures).
@_cdecl("sketchprep_result_failure_index")
public func sketchprepResultFailureIndex(_ result: UnsafeMutableRawPointer, _ number: Int64) -> Int64 {
    let failures = BatchResult.from(result).failures
    return failures.indices.contains(Int(number)) ? failures[Int(number)].index : -1
}

/// The reason of failure `number`, NUL-terminated UTF-8. Valid until the result is freed.
@_cdecl("sketchprep_result_failure_reason")
public func sketchprepResultFailureReason(_ result: UnsafeMutableRawPointer, _ number: Int64) -> UnsafePointer<CChar>? {
    let result = BatchResult.from(result)
    guard result.failures.indices.contains(Int(number)) else { return nil }
    return UnsafePointer(result.failures[Int(number)].reason.pointer)
}

/// Frees a result.
@_cdecl("sketchprep_result_free")
public func sketchprepResultFree(_ result: UnsafeMutableRawPointer) {
    Unmanaged<BatchResult>.fromOpaque(result).release()
}

/// The SketchPrep version the library was built from (`SketchPrepVersion.current`).
@_cdecl("sketchprep_version")
public func sketchprepVersion() -> UnsafePointer<CChar> { UnsafePointer(versionText.pointer) }

private let versionText = CString(SketchPrepVersion.current)
