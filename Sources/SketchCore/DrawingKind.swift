/// Whether a Quick, Draw! drawing is raw (needs Google's simplification) or already simplified.
public enum DrawingKind: String, Sendable, CaseIterable {
    /// Raw capture: timestamps and screen coordinates.
    case raw
    /// Google's simplified form: integer coordinates in 0...255, no timestamps.
    case simplified

    /// The detection rule of `--input-format auto`: a drawing is raw when any stroke carries a `t`
    /// array or any coordinate lies outside 0...255; otherwise it is taken as simplified.
    /// (Simplification guarantees both; raw files always carry `t`, so the range test only
    /// matters for hand-made or third-party data without timestamps.)
    public static func detect(_ drawing: Drawing) -> DrawingKind {
        for stroke in drawing.strokes {
            if !stroke.t.isEmpty { return .raw }
            for value in stroke.x where !(0...255).contains(value) { return .raw }
            for value in stroke.y where !(0...255).contains(value) { return .raw }
        }
        return .simplified
    }
}
