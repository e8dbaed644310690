/// The arrays of one split of a stroke-3 `.npz` as `Stroke3NPZ.decodeSplits(_:path:)` finds them:
/// converted to `Double` by the general readers, or, for a pickle in the writer's layout (the
/// published files', `NumpyObjectArrayPickle.storedArrays`), left as stored in the inflated entry.
package enum Stroke3SplitArrays {
    /// Arrays read by the general pickle reader or the flat layout's.
    case decoded([NumericArray])
    /// The inflated entry `contents` and its arrays' places in it (little-endian int16 values, or
    /// float64 with `isFloat64`).
    case stored([UInt8], isFloat64: Bool, arrays: [NumpyObjectArrayPickle.StoredArray])

    /// Number of arrays.
    package var count: Int {
        switch self {
        case .decoded(let arrays): return arrays.count
        case .stored(_, _, let arrays): return arrays.count
        }
    }

    /// Whether any array holds float64 values.
    package var holdsFloat64: Bool {
        switch self {
        case .decoded(let arrays): return arrays.contains(where: \.isFloat64)
        case .stored(_, let isFloat64, let arrays): return isFloat64 && !arrays.isEmpty
        }
    }

    /// The arrays with their values as `Double` (what `NumpyObjectArrayPickle.decode` gives).
    package var numericArrays: [NumericArray] {
        switch self {
        case .decoded(let arrays): return arrays
        case let .stored(contents, isFloat64, arrays):
            return contents.withUnsafeBytes { raw in
                arrays.map { array in
                    let count = array.rows * array.columns
                    let values = [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                        for index in 0..<count {
                            buffer[index] =
                                isFloat64
                                ? Double(
                                    bitPattern: UInt64(
                                        littleEndian: raw.loadUnaligned(
                                            fromByteOffset: array.values.lowerBound + 8 * index, as: UInt64.self)))
                                : Double(
                                    Int16(
                                        littleEndian: raw.loadUnaligned(fromByteOffset: array.values.lowerBound + 2 * index, as: Int16.self)
                                    ))
                        }
                        initialized = count
                    }
                    return NumericArray(rows: array.rows, columns: array.columns, values: values, isFloat64: isFloat64)
                }
            }
        }
    }
}
