@testable import SketchFormats

// Encoders that write a whole `.npz` entry's contents in one go, the references the assembled
// (fragment-joined) entries are checked against.

extension NumpyObjectArrayPickle {
    /// The pickle of a whole object array of `arrays`: the pieces in order, with no stored blocks
    /// or fragments between them.
    static func encode(_ arrays: [NumericArray], float64: Bool) -> [UInt8] {
        var out = preamble(count: arrays.count)
        var raw: [UInt8] = []
        for (index, array) in arrays.enumerated() {
            appendArrayPrefix(index: index, count: arrays.count, rows: array.rows, columns: array.columns, float64: float64, to: &out)
            raw.removeAll(keepingCapacity: true)
            appendRawValues(array.values, float64: float64, to: &raw)
            appendArrayTail(rawValues: raw, to: &out)
            appendArraySuffix(index: index, count: arrays.count, to: &out)
        }
        return out + trailer
    }
}

extension Stroke3FlatLayout {
    /// The zip entries of `splits` in the flat layout (every value must fit `elementType`).
    static func entries(
        _ splits: [(split: Stroke3Split, arrays: [NumericArray])],
        elementType: Stroke3ElementType
    ) -> [(name: String, contents: [UInt8])] {
        Stroke3Split.allCases.flatMap { split -> [(name: String, contents: [UInt8])] in
            let arrays = splits.first { $0.split == split }?.arrays ?? []
            var offsets: [Int64] = [0]
            offsets.reserveCapacity(arrays.count + 1)
            for array in arrays { offsets.append(offsets.last! + Int64(array.rows)) }
            let values = arrays.flatMap(\.values)
            let shape = [Int(offsets.last!), 3]
            let points =
                elementType == .float64
                ? NPYWriter.encode(values, dtype: .float64, shape: shape)
                : NPYWriter.encode(values.map { Int16($0) }, dtype: .int16, shape: shape)
            return [
                ("\(split.rawValue)_points.npy", points),
                ("\(split.rawValue)_offsets.npy", NPYWriter.encode(offsets, dtype: .int64, shape: [offsets.count])),
            ]
        }
    }

}
