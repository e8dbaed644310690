import SketchCore
import SketchDataset
import SketchFormats

/// Which drawings get Google's simplification before they are encoded or rendered: pipelines'
/// `source.format`, `encode --input-format` and `bitmap --input-format`.
package enum InputFormat: String, CaseIterable, Sendable {
    /// Simplify drawings detected as raw by `DrawingKind.detect` (a `t` array or a coordinate outside 0–255).
    case auto
    /// Simplify every drawing.
    case raw
    /// Never simplify.
    case simplified

    /// Whether `drawing` is simplified before use under this format.
    package func needsSimplification(_ drawing: Drawing) -> Bool {
        switch self {
        case .auto: return DrawingKind.detect(drawing) == .raw
        case .raw: return true
        case .simplified: return false
        }
    }

    /// `drawing` ready to encode or render: simplified with `simplifier` when this format says
    /// so, otherwise checked against `DrawingLimits.maximumSimplifiedCoordinate`. Throws
    /// `DrawingLimitError` for a drawing over a cap, which the reader quarantines.
    package func prepare(_ drawing: Drawing, with simplifier: inout Simplifier) throws(DrawingLimitError) -> Drawing {
        if needsSimplification(drawing) { return try simplifier.simplify(drawing) }
        try DrawingLimits.checkSimplified(drawing)
        return drawing
    }
}
