/// Element types SketchPrep reads and writes in `.npy` files (always little-endian).
public enum NPYDType: String, Sendable, Codable, CaseIterable {
    /// 32-bit IEEE float, `<f4`.
    case float32
    /// 32-bit signed integer, `<i4`.
    case int32
    /// Unsigned byte, `|u1`.
    case uint8
    /// 16-bit signed integer, `<i2` (flat stroke-3 points).
    case int16
    /// 64-bit signed integer, `<i8` (flat stroke-3 offsets).
    case int64
    /// 64-bit IEEE float, `<f8` (flat stroke-3 points of float64 input).
    case float64

    /// The numpy `descr` string.
    public var descr: String {
        switch self {
        case .float32: return "<f4"
        case .int32: return "<i4"
        case .uint8: return "|u1"
        case .int16: return "<i2"
        case .int64: return "<i8"
        case .float64: return "<f8"
        }
    }

    /// Bytes per element.
    public var size: Int {
        switch self {
        case .float32, .int32: return 4
        case .uint8: return 1
        case .int16: return 2
        case .int64, .float64: return 8
        }
    }

    /// The dtype for a numpy `descr` string, or `nil` if SketchPrep does not handle it.
    public init?(descr: String) {
        guard let match = Self.allCases.first(where: { $0.descr == descr }) else { return nil }
        self = match
    }
}

/// The `.npy` version 1.0 header, laid out byte for byte as `numpy.save` writes it (numpy ≥ 1.24):
/// magic `\x93NUMPY`, version 1.0, a little-endian UInt16 header length, then the dict
/// `{'descr': …, 'fortran_order': False, 'shape': (…), }`, followed by spare spaces for a
/// 21-digit first dimension and space padding plus `\n` so the data starts on a 64-byte boundary.
///
/// Because the spare space is there, the first dimension can be rewritten in place when a
/// streaming writer learns the final row count, and the header length never changes.
public enum NPYFormat {
    /// `\x93NUMPY`.
    public static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]
    /// Data alignment numpy uses (and memory mapping relies on).
    public static let alignment = 64
    /// Digits of the first dimension numpy reserves room for.
    static let growthAxisMaxDigits = 21

    /// The complete header (magic through `\n`) for a C-order array of `dtype` and `shape`.
    public static func header(dtype: NPYDType, shape: [Int]) -> [UInt8] {
        header(descr: dtype.descr, shape: shape)
    }

    /// The header for a C-order array with the numpy `descr` string `descr` (e.g. `|O` for the
    /// object arrays of stroke-3 `.npz` files) and `shape`.
    package static func header(descr: String, shape: [Int]) -> [UInt8] {
        var dict = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeLiteral(shape)), }"
        if let first = shape.first {
            dict += String(repeating: " ", count: max(growthAxisMaxDigits - String(first).count, 0))
        }
        let prefix = magic.count + 2 + 2
        let unpadded = prefix + dict.utf8.count + 1
        let padding = (alignment - unpadded % alignment) % alignment
        dict += String(repeating: " ", count: padding) + "\n"
        let length = dict.utf8.count
        precondition(length <= Int(UInt16.max), "NPY header too long")
        return magic + [1, 0, UInt8(length & 0xFF), UInt8(length >> 8)] + Array(dict.utf8)
    }

    /// The product of `dimensions`, or nil when one is negative or the product overflows `Int`
    /// (shapes come from files: every shape product is computed with this).
    package static func checkedProduct(_ dimensions: some Sequence<Int>) -> Int? {
        var product = 1
        for dimension in dimensions {
            guard dimension >= 0 else { return nil }
            let (value, overflow) = product.multipliedReportingOverflow(by: dimension)
            guard !overflow else { return nil }
            product = value
        }
        return product
    }

    /// Python's repr of a shape tuple: `()`, `(5,)`, `(5, 75, 3)`.
    static func shapeLiteral(_ shape: [Int]) -> String {
        shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
    }
}
