/// One example's features: a fixed-shape array of float32, float64 or uint8 values, row-major.
public enum TensorPayload: Sendable, Equatable {
    /// Float32 values and their shape (e.g. a `(75, 3)` stroke tensor).
    case float32([Float], shape: [Int])
    /// Float64 values and their shape (stroke-3 rows of float64 input, kept exactly).
    case float64([Double], shape: [Int])
    /// Byte values and their shape (e.g. a `(28, 28)` bitmap).
    case uint8([UInt8], shape: [Int])

    /// The array's shape.
    public var shape: [Int] {
        switch self {
        case let .float32(_, shape), let .float64(_, shape), let .uint8(_, shape): return shape
        }
    }

    /// The NPY element type.
    public var dtype: NPYDType {
        switch self {
        case .float32: return .float32
        case .float64: return .float64
        case .uint8: return .uint8
        }
    }

    /// Number of values.
    public var count: Int {
        switch self {
        case let .float32(values, _): return values.count
        case let .float64(values, _): return values.count
        case let .uint8(values, _): return values.count
        }
    }
}
