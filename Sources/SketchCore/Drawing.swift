/// One pen-down-to-pen-up stroke: parallel coordinate arrays.
///
/// Raw Quick, Draw! strokes carry a third array of timestamps (ms since the drawing's first
/// point); simplified strokes do not, and `t` is then empty.
public struct Stroke: Equatable, Hashable, Sendable {
    /// Horizontal coordinates, one per point.
    public var x: [Double]
    /// Vertical coordinates, one per point (same count as `x`).
    public var y: [Double]
    /// Timestamps in milliseconds, one per point, or empty when the source had none.
    public var t: [Double]

    /// Creates a stroke. `x` and `y` must have the same count; `t` is either empty or that count too.
    public init(x: [Double], y: [Double], t: [Double] = []) {
        precondition(x.count == y.count, "Stroke x/y length mismatch")
        precondition(t.isEmpty || t.count == x.count, "Stroke t length mismatch")
        self.x = x
        self.y = y
        self.t = t
    }

    /// Number of points in the stroke.
    public var count: Int { x.count }
}

/// A sketch: an ordered list of strokes.
public struct Drawing: Equatable, Hashable, Sendable {
    /// Strokes in drawing order.
    public var strokes: [Stroke]

    /// Creates a drawing from its strokes.
    public init(strokes: [Stroke]) { self.strokes = strokes }

    /// Total number of points over all strokes.
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.count } }
}

/// One Quick, Draw! record with its metadata, as found on one NDJSON line.
///
/// Field order mirrors Google's files: `word, countrycode, timestamp, recognized, key_id, drawing`.
public struct SketchRecord: Equatable, Sendable {
    /// Category name, e.g. `"airplane"`.
    public var word: String
    /// Two-letter ISO country code of the player.
    public var countryCode: String
    /// Timestamp string exactly as in the source (e.g. `"2017-03-08 21:12:07.26604 UTC"`).
    public var timestamp: String
    /// Whether the game's classifier recognized the drawing.
    public var recognized: Bool
    /// Google's unique id of the drawing (a decimal string of a 64-bit integer).
    public var keyID: String
    /// The strokes; replacing or changing them sets `kind` to theirs (`DrawingKind.detect`).
    public var drawing: Drawing {
        didSet { kind = DrawingKind.detect(drawing) }
    }
    /// Raw or simplified by `DrawingKind`'s rule, as the record's source said: decided by the
    /// reader while it decodes the line (`QuickDrawLineParser`), so a reader that drops the `t`
    /// arrays keeps the answer; for a record made in code, or once `drawing` is changed, the kind
    /// of `drawing`.
    public var kind: DrawingKind

    /// Creates a record; its `kind` is `DrawingKind.detect(drawing)` unless given.
    public init(
        word: String, countryCode: String, timestamp: String, recognized: Bool,
        keyID: String, drawing: Drawing, kind: DrawingKind? = nil
    ) {
        self.word = word
        self.countryCode = countryCode
        self.timestamp = timestamp
        self.recognized = recognized
        self.keyID = keyID
        self.drawing = drawing
        self.kind = kind ?? DrawingKind.detect(drawing)
    }
}
