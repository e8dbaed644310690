/// The pickle-free stroke-3 `.npz` layout (`output.layout: flat`, `convert --layout flat`): per
/// split, `<split>_points.npy`, every drawing's rows one after another as a `(P, 3)` array
/// (`<i2`, or `<f8` for float64 input), and `<split>_offsets.npy`, an `(N + 1,)` `<i8` array whose
/// drawing `i` is rows `offsets[i] ..< offsets[i + 1]`. `np.load(path)` opens it with the default
/// `allow_pickle=False`:
///
///     f = np.load("cat.npz")
///     points, offsets = f["train_points"], f["train_offsets"]
///     drawings = [points[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
package enum Stroke3FlatLayout {
    /// The entry names of the flat layout, in the order they are written.
    package static let entryNames = Stroke3Split.allCases.flatMap { [pointsEntry($0), offsetsEntry($0)] }

    /// The entry of `split`'s points, `<split>_points.npy`.
    package static func pointsEntry(_ split: Stroke3Split) -> String { "\(split.rawValue)_points.npy" }
    /// The entry of `split`'s offsets, `<split>_offsets.npy`.
    package static func offsetsEntry(_ split: Stroke3Split) -> String { "\(split.rawValue)_offsets.npy" }

    /// Whether a zip's entries are those of the flat layout (any order).
    package static func isFlat(entryNames names: [String]) -> Bool {
        names.sorted() == entryNames.sorted()
    }

    /// The splits of flat-layout entries; throws `FormatError` naming the entry for a dtype other
    /// than int16, int32 or float64 points and int64 offsets, a shape other than `(P, 3)` and
    /// `(N + 1,)`, or offsets that do not start at 0, decrease or do not end at `P`.
    package static func decode(
        _ entries: [(name: String, contents: [UInt8])], path: String
    ) throws -> [(split: Stroke3Split, arrays: [NumericArray])] {
        let named = Dictionary(entries.map { ($0.name, $0.contents) }) { first, _ in first }
        return try Stroke3Split.allCases.map { split in
            let pointsName = pointsEntry(split)
            let offsetsName = offsetsEntry(split)
            let points = try NPYReader.parse(named[pointsName] ?? [], path: "\(path)/\(pointsName)")
            let offsetArray = try NPYReader.parse(named[offsetsName] ?? [], path: "\(path)/\(offsetsName)")
            func fail(_ name: String, _ reason: String) -> FormatError { FormatError(.input, "\(path)/\(name): \(reason)") }
            guard points.shape.count == 2, points.shape[1] == 3 else { throw fail(pointsName, "shape \(points.shape) is not (P, 3)") }
            let values: [Double]
            switch points.dtype {
            case .int16: values = points.elements(of: Int16.self).map(Double.init)
            case .int32: values = points.int32s().map(Double.init)
            case .float64: values = points.elements(of: Double.self)
            default: throw fail(pointsName, "dtype \(points.dtype) is not int16, int32 or float64")
            }
            guard offsetArray.dtype == .int64, offsetArray.shape.count == 1, !offsetArray.shape.isEmpty, offsetArray.shape[0] >= 1 else {
                throw fail(offsetsName, "is not a non-empty 1-D int64 array")
            }
            let offsets = offsetArray.elements(of: Int64.self)
            let rows = points.shape[0]
            guard offsets.first == 0, offsets.last == Int64(rows), zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw fail(offsetsName, "offsets must start at 0, never decrease and end at the \(rows) rows of \(pointsName)")
            }
            let arrays = zip(offsets, offsets.dropFirst()).map { start, end in
                NumericArray(
                    rows: Int(end - start), columns: 3, values: Array(values[(3 * Int(start))..<(3 * Int(end))]),
                    isFloat64: points.dtype == .float64)
            }
            return (split, arrays)
        }
    }
}
