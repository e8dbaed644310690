/// Which end of a sequence an operation applies to.
public enum SequenceSide: String, Sendable, Codable, CaseIterable {
    /// The start of the sequence (row 0).
    case front
    /// The end of the sequence (the last row).
    case back
}

/// How a drawing becomes a stroke tensor: the sequence length and where to pad or cut.
///
/// The recipe itself (point rows, per-axis min-max normalisation, deltas) is fixed; these options
/// only decide the final length. See ``StrokeTensorEncoder`` for the recipe.
public struct StrokeTensorOptions: Sendable, Equatable, Codable {
    /// Fixed number of rows, or `nil` to keep every delta row (variable length, no padding).
    public var length: Int?
    /// Where zero rows go when a drawing has fewer than `length` delta rows.
    public var paddingSide: SequenceSide
    /// Where rows are dropped when a drawing has more than `length` delta rows
    /// (`.back` keeps the first `length` rows).
    public var truncationSide: SequenceSide

    /// Creates options. `length`, when given, must be at least 1.
    public init(length: Int?, paddingSide: SequenceSide = .front, truncationSide: SequenceSide = .back) {
        precondition(length.map { $0 >= 1 } ?? true, "StrokeTensorOptions.length must be >= 1")
        self.length = length
        self.paddingSide = paddingSide
        self.truncationSide = truncationSide
    }

    /// The book's training recipe: 75 rows, zero-padded at the front, the first 75 rows kept.
    public static let book = StrokeTensorOptions(length: 75, paddingSide: .front, truncationSide: .back)

    /// The TensorFlow Quick, Draw! tutorial: every delta row, no padding (padding happens per batch).
    public static let tfTutorial = StrokeTensorOptions(length: nil)
}

/// A row-major `(rows, 3)` float32 stroke tensor: each row is `(dx, dy, end_of_stroke)`.
public struct StrokeTensor: Sendable, Equatable {
    /// Number of rows.
    public var rows: Int { values.count / StrokeTensorEncoder.columns }
    /// `rows × 3` values, row-major.
    public var values: [Float]

    /// Wraps row-major values; the count must be a multiple of 3.
    public init(values: [Float]) {
        precondition(values.count % StrokeTensorEncoder.columns == 0, "StrokeTensor needs rows × 3 values")
        self.values = values
    }
}

/// Turns a simplified drawing into the RNN input of the TensorFlow Quick, Draw! tutorial and the
/// book's training recipe.
///
/// The recipe, all in float32 exactly as the tutorial's numpy code computes it:
/// 1. Concatenate every point of every stroke as rows `(x, y, eos)`; `eos` is 1 on each stroke's
///    last point, else 0. Coordinates are converted Double → Float with round-to-nearest.
/// 2. Per axis: `lower = min`, `scale = max − lower` (a zero scale becomes 1);
///    `v = (v − lower) / scale`, each operation rounded to float32.
/// 3. Deltas: row k = `(x[k+1] − x[k], y[k+1] − y[k], eos[k+1])`, giving N − 1 rows for N points.
/// 4. With a fixed length: cut rows at `truncationSide`, add zero rows at `paddingSide`.
///
/// A drawing with 0 or 1 points has no delta rows (all padding at a fixed length).
public enum StrokeTensorEncoder {
    /// Values per row: dx, dy, end-of-stroke.
    public static let columns = 3

    /// Encodes `drawing` with `options`.
    public static func encode(_ drawing: Drawing, options: StrokeTensorOptions = .book) -> StrokeTensor {
        var values: [Float] = []
        encode(drawing, options: options, appendingTo: &values)
        return StrokeTensor(values: values)
    }

    /// Number of delta rows the recipe produces for `drawing` before padding or truncation.
    public static func deltaRowCount(of drawing: Drawing) -> Int {
        max(drawing.pointCount - 1, 0)
    }

    /// Appends the encoding of `drawing` (rows × 3 values, row-major) to `output`, allocating
    /// nothing else; the fast path for writers that keep many tensors in one buffer.
    public static func encode(_ drawing: Drawing, options: StrokeTensorOptions, appendingTo output: inout [Float]) {
        let deltaRows = deltaRowCount(of: drawing)
        let outRows = options.length ?? deltaRows
        let keptRows = min(deltaRows, outRows)
        // First delta row kept, and zero rows written before the data.
        let firstKept = options.truncationSide == .front ? deltaRows - keptRows : 0
        let padRows = outRows - keptRows
        let leadingPad = options.paddingSide == .front ? padRows : 0

        output.reserveCapacity(output.count + outRows * columns)
        output.append(contentsOf: repeatElement(0, count: leadingPad * columns))
        if keptRows > 0 {
            let bounds = Bounds(of: drawing)
            var emitted = 0
            var deltaIndex = -1  // index of the delta row ending at the current point
            var previousX: Float = 0
            var previousY: Float = 0
            outer: for stroke in drawing.strokes {
                let last = stroke.count - 1
                for i in 0..<stroke.count {
                    let x = (Float(stroke.x[i]) - bounds.lowerX) / bounds.scaleX
                    let y = (Float(stroke.y[i]) - bounds.lowerY) / bounds.scaleY
                    if deltaIndex >= firstKept {
                        output.append(x - previousX)
                        output.append(y - previousY)
                        output.append(i == last ? 1 : 0)
                        emitted += 1
                        if emitted == keptRows { break outer }
                    }
                    previousX = x
                    previousY = y
                    deltaIndex += 1
                }
            }
        }
        output.append(contentsOf: repeatElement(0, count: (padRows - leadingPad) * columns))
    }

    /// Per-axis float32 minimum and range (a zero range replaced by 1), as the recipe needs them.
    private struct Bounds {
        var lowerX: Float = .infinity, lowerY: Float = .infinity
        var scaleX: Float = 1, scaleY: Float = 1

        init(of drawing: Drawing) {
            var upperX = -Float.infinity
            var upperY = -Float.infinity
            for stroke in drawing.strokes {
                for v in stroke.x {
                    let f = Float(v)
                    lowerX = min(lowerX, f)
                    upperX = max(upperX, f)
                }
                for v in stroke.y {
                    let f = Float(v)
                    lowerY = min(lowerY, f)
                    upperY = max(upperY, f)
                }
            }
            let rangeX = upperX - lowerX
            let rangeY = upperY - lowerY
            scaleX = rangeX == 0 ? 1 : rangeX
            scaleY = rangeY == 0 ? 1 : rangeY
        }
    }
}
