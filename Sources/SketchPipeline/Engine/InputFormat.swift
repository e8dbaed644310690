import SketchCore
import SketchDataset
import SketchFormats

/// Which drawings get Google's simplification before they are used: the one override of the rule,
/// taken by every command that simplifies (`--input-format` of `convert`, `simplify`, `encode`,
/// `bitmap`, `stats`) and by pipelines (`source.format`).
package enum InputFormat: String, CaseIterable, Sendable {
    /// Simplify what its input says is raw (``needsSimplification(_:readAs:)``).
    case auto
    /// Simplify every drawing.
    case raw
    /// Never simplify.
    case simplified

    /// Whether `record`, read from an input of `fileFormat`, is simplified before use: the one
    /// raw-or-simplified rule of every command. `raw` and `simplified` force the answer. `auto`
    /// asks what the input's format declares in its registry entry (`InputFormatPlugin.drawings`):
    /// always simplified (a Google `.bin`), always raw (an SVG sketch), taken as they are, never
    /// simplified (stroke-3), or per record (NDJSON, CSV): what its line said as it was decoded
    /// (`SketchRecord.kind`: raw when it had a `t` array or a coordinate that is not an integer
    /// in 0…255), whether or not the reader kept the times.
    package func needsSimplification(_ record: SketchRecord, readAs fileFormat: DrawingFileFormat) -> Bool {
        switch self {
        case .raw: return true
        case .simplified: return false
        case .auto:
            switch fileFormat.plugin.drawings {
            case .alwaysSimplified, .takenAsTheyAre: return false
            case .alwaysRaw: return true
            case .perRecord: return record.kind == .raw
            }
        }
    }

    /// `record`'s drawing ready to encode or render: simplified with `simplifier` when
    /// ``needsSimplification(_:readAs:)`` says so, otherwise checked against
    /// `DrawingLimits.maximumSimplifiedCoordinate`. Throws `DrawingLimitError` for a drawing over
    /// a cap, which the reader quarantines.
    package func prepare(
        _ record: SketchRecord, readAs fileFormat: DrawingFileFormat, with simplifier: inout Simplifier
    ) throws(DrawingLimitError) -> Drawing {
        if needsSimplification(record, readAs: fileFormat) { return try simplifier.simplify(record.drawing) }
        try DrawingLimits.checkSimplified(record.drawing)
        return record.drawing
    }
}
