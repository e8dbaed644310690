/// Whether a Quick, Draw! drawing is raw (needs Google's simplification) or already simplified.
public enum DrawingKind: String, Sendable, CaseIterable {
    /// Raw capture: timestamps and screen coordinates.
    case raw
    /// Google's simplified form: integer coordinates in 0...255, no timestamps.
    case simplified

    /// The rule of `--input-format auto` for a drawing as its source holds it: raw when any stroke
    /// carries a `t` array (`hasTimestamps`) or any coordinate is not an integer in 0...255
    /// (`allCoordinatesSimplified` false, see ``isSimplifiedCoordinate(_:)``); otherwise
    /// simplified. Simplification guarantees both, so Google's simplified files are simplified and
    /// their raw files raw. Readers decide it while they decode, before timestamps are dropped
    /// (`SketchRecord.kind`).
    public init(hasTimestamps: Bool, allCoordinatesSimplified: Bool) {
        self = hasTimestamps || !allCoordinatesSimplified ? .raw : .simplified
    }

    /// Whether `value` can be a coordinate of a simplified drawing: an integer in 0...255.
    @inlinable
    public static func isSimplifiedCoordinate(_ value: Double) -> Bool { notSimplified(value) == 0 }

    /// Whether every value of `values` is ``isSimplifiedCoordinate(_:)``: checked without an early
    /// exit and without a branch per value (readers check each coordinate array they parse).
    @inlinable
    package static func areSimplifiedCoordinates(_ values: UnsafeBufferPointer<Double>) -> Bool {
        var others: UInt8 = 0
        for value in values { others |= notSimplified(value) }
        return others == 0
    }

    /// 0 when `value` is an integer in 0...255, else 1: the one statement of the rule. The range
    /// test is one comparison, `|value − 127.5| ≤ 127.5`, which holds for exactly the values in
    /// 0...255 (−0 among them) and for negative values too small to be integers, which the integer
    /// test refuses. Within that range (never for NaN), adding 2⁵² rounds any fraction away, so the
    /// value is an integer exactly when that changes nothing: two additions, where
    /// `rounded(.towardZero)` calls libm's `trunc`. The tests are joined as bits, not by `&&`,
    /// which compiled to a branch each; a flag turned into a `Bool` and back cost
    /// ``areSimplifiedCoordinates(_:)`` 1.3 % more instructions in a read of simplified drawings.
    @usableFromInline
    static func notSimplified(_ value: Double) -> UInt8 {
        let outside: UInt8 = (value - 127.5).magnitude <= 127.5 ? 0 : 1
        let fraction: UInt8 = (value + 0x1p52) - 0x1p52 == value ? 0 : 1
        return outside | fraction
    }

    /// The kind of `drawing` by ``init(hasTimestamps:allCoordinatesSimplified:)``.
    public static func detect(_ drawing: Drawing) -> DrawingKind {
        var hasTimestamps = false
        var allCoordinatesSimplified = true
        for stroke in drawing.strokes {
            if !stroke.t.isEmpty { hasTimestamps = true }
            if allCoordinatesSimplified {
                allCoordinatesSimplified =
                    stroke.x.withUnsafeBufferPointer(areSimplifiedCoordinates) && stroke.y.withUnsafeBufferPointer(areSimplifiedCoordinates)
            }
        }
        return DrawingKind(hasTimestamps: hasTimestamps, allCoordinatesSimplified: allCoordinatesSimplified)
    }
}
