/// Turns a stroke tensor (rows of `(dx, dy, end_of_stroke)`, ``StrokeTensorEncoder``'s output) back
/// into a drawing, for looking at encoded data.
///
/// Row k of the recipe is the step from point k to point k + 1 and point k + 1's end-of-stroke
/// flag, so the drawing comes back point by point: it starts at `(0, 0)`, each row adds
/// `(dx, dy)` and appends that point to the current stroke, and a flag above 0.5 ends the stroke
/// (the next row's step is then the pen-up move to the next stroke's first point). All-zero rows
/// before the first and after the last other row are padding and are skipped. The recipe drops
/// the first point's position, the per-axis scale and the first point's own flag, so the result
/// is in normalised units (each axis spans at most 1) and a one-point first stroke comes back
/// joined to the second.
public enum StrokeTensorDecoder {
    /// Decodes row-major `rows × 3` values; nil when a value is not finite (NaN or infinity) or
    /// the count is not a multiple of 3.
    public static func drawing(from values: ArraySlice<Float>) -> Drawing? {
        let columns = StrokeTensorEncoder.columns
        guard values.count % columns == 0, values.allSatisfy(\.isFinite) else { return nil }
        let rows = Array(stride(from: values.startIndex, to: values.endIndex, by: columns))
        let isPadding = { (row: Int) in values[row] == 0 && values[row + 1] == 0 && values[row + 2] == 0 }
        var strokes: [Stroke] = []
        var xs: [Double] = [0]
        var ys: [Double] = [0]
        guard let first = rows.first(where: { !isPadding($0) }), let last = rows.last(where: { !isPadding($0) }) else {
            return Drawing(strokes: [Stroke(x: xs, y: ys)])
        }
        for row in stride(from: first, through: last, by: columns) {
            xs.append((xs.last ?? strokes.last?.x.last ?? 0) + Double(values[row]))
            ys.append((ys.last ?? strokes.last?.y.last ?? 0) + Double(values[row + 1]))
            if values[row + 2] > 0.5 {
                strokes.append(Stroke(x: xs, y: ys))
                xs = []
                ys = []
            }
        }
        if !xs.isEmpty { strokes.append(Stroke(x: xs, y: ys)) }
        return Drawing(strokes: strokes)
    }
}
