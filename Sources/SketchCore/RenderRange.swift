/// The coordinate range the renderer (cairo) represents exactly, and the one check every render
/// path applies to the points it hands to cairo, after every transform.
///
/// cairo turns device coordinates into 24.8 fixed point (a 32-bit integer holding 1/256 pixel), so
/// a coordinate beyond ±2²³ wraps around silently: a curve far outside the canvas would be drawn
/// with another shape. Its stroker and flattener add the pen and intermediate points to the
/// coordinates they get, so the accepted range is half of that: `|v| ≤ 2²²` device units.
public enum RenderRange {
    /// Largest accepted `|x|` or `|y|` of a point in the renderer's device space.
    public static let maximumDeviceCoordinate = Double(1 << 22)

    /// The quarantine reason of a drawing with a point beyond the renderer's range.
    public static let outOfRange = "coordinate beyond the renderer's range"

    /// Throws `outOfRange` unless the device point `(x, y)` is finite and within
    /// ±`maximumDeviceCoordinate`.
    public static func check(x: Double, y: Double) throws(DrawingLimitError) {
        guard x.magnitude <= maximumDeviceCoordinate, y.magnitude <= maximumDeviceCoordinate else {
            throw DrawingLimitError(
                .beyondRenderRange, "a point lands at (\(x), \(y)), beyond ±\(Int(maximumDeviceCoordinate)) (cairo's 24.8 fixed point)")
        }
    }

    /// Throws `outOfRange` unless every point of `drawing`, mapped by `x' = (x + offsetX) · scale`
    /// and `y' = (y + offsetY) · scale` (the renderer's transform) and widened by `margin` device
    /// units on each side (half the pen), is within the range.
    public static func check(_ drawing: Drawing, offsetX: Double, offsetY: Double, scale: Double, margin: Double) throws(DrawingLimitError)
    {
        for stroke in drawing.strokes {
            for index in 0..<stroke.count {
                let x = (stroke.x[index] + offsetX) * scale
                let y = (stroke.y[index] + offsetY) * scale
                try check(x: x.magnitude + margin, y: y.magnitude + margin)
            }
        }
    }
}
