import Foundation
import SketchIO

/// A `.npy` array loaded into memory: element type, shape and the raw little-endian data.
public struct NPYArray: Sendable, Equatable {
    /// Element type.
    public var dtype: NPYDType
    /// Shape (C order).
    public var shape: [Int]
    /// The data bytes, `shape.product × dtype.size` of them.
    public var data: [UInt8]

    /// The elements as float32 (requires `dtype == .float32`).
    public func floats() -> [Float] { elements(of: Float.self, expecting: .float32) }
    /// The elements as int32 (requires `dtype == .int32`).
    public func int32s() -> [Int32] { elements(of: Int32.self, expecting: .int32) }

    private func elements<T: BitwiseCopyable>(of type: T.Type, expecting expected: NPYDType) -> [T] {
        precondition(dtype == expected, "NPYArray holds \(dtype), not \(expected)")
        return elements(of: type)
    }

    /// The elements as `T`, whose size must be the dtype's (the caller checked the dtype).
    package func elements<T: BitwiseCopyable>(of: T.Type) -> [T] {
        precondition(MemoryLayout<T>.stride == dtype.size, "NPYArray holds \(dtype), not \(T.self)")
        let count = data.count / MemoryLayout<T>.stride
        return [T](unsafeUninitializedCapacity: count) { out, initialized in
            data.withUnsafeBytes { raw in
                for i in 0..<count { out[i] = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<T>.stride, as: T.self) }
            }
            initialized = count
        }
    }
}

/// Reads `.npy` files (versions 1.0–3.0, C order, little-endian float32 / int32 / uint8 / int16 / int64 / float64).
public enum NPYReader {
    /// Loads the array in `path`.
    public static func read(path: String) throws -> NPYArray {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(path)
        } catch {
            throw FormatError.npy(path: path, reason: error.description)
        }
        return try parse(bytes, path: path)
    }

    /// Parses `.npy` bytes; `path` only names the source in errors.
    public static func parse(_ bytes: [UInt8], path: String = "<memory>") throws -> NPYArray {
        func fail(_ reason: String) -> FormatError { FormatError.npy(path: path, reason: reason) }
        guard bytes.count >= 10, Array(bytes[0..<6]) == NPYFormat.magic else { throw fail("not an .npy file (bad magic)") }
        let major = bytes[6]
        let lengthStart = 8
        let lengthSize = major == 1 ? 2 : 4
        guard (1...3).contains(major), bytes.count >= lengthStart + lengthSize else {
            throw fail("unsupported .npy version \(major).\(bytes[7])")
        }
        var headerLength = 0
        for i in 0..<lengthSize { headerLength |= Int(bytes[lengthStart + i]) << (8 * i) }
        let dataStart = lengthStart + lengthSize + headerLength
        guard dataStart <= bytes.count else { throw fail("truncated header") }
        let header = String(decoding: bytes[(lengthStart + lengthSize)..<dataStart], as: UTF8.self)

        guard let descr = quotedValue(of: "descr", in: header) else { throw fail("header has no 'descr'") }
        guard let dtype = NPYDType(descr: descr) else { throw fail("unsupported dtype '\(descr)'") }
        guard header.contains("'fortran_order': False") else { throw fail("Fortran-order arrays are not supported") }
        guard let shape = shapeValue(in: header) else { throw fail("header has no readable 'shape'") }
        // Dimensions come from the file: every product of them (the non-zero ones included, so that a
        // zero first dimension cannot hide (0, 2³², 2³²)) is checked, so a hostile shape is an error, not a trap.
        guard NPYFormat.checkedProduct(shape.filter { $0 != 0 } + [dtype.size]) != nil,
            let expected = NPYFormat.checkedProduct(shape + [dtype.size])
        else {
            throw fail("shape \(shape) of \(dtype) is too large")
        }
        guard bytes.count - dataStart == expected else {
            throw fail("data is \(bytes.count - dataStart) bytes, shape \(shape) of \(dtype) needs \(expected)")
        }
        return NPYArray(dtype: dtype, shape: shape, data: Array(bytes[dataStart...]))
    }

    /// The string after `'key': '` up to the next quote.
    private static func quotedValue(of key: String, in header: String) -> String? {
        guard let range = header.range(of: "'\(key)': '") else { return nil }
        let rest = header[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// The integers of the `'shape': (…)` tuple.
    private static func shapeValue(in header: String) -> [Int]? {
        guard let range = header.range(of: "'shape': (") else { return nil }
        let rest = header[range.upperBound...]
        guard let end = rest.firstIndex(of: ")") else { return nil }
        var dims: [Int] = []
        for part in rest[..<end].split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let value = Int(trimmed), value >= 0 else { return nil }
            dims.append(value)
        }
        return dims
    }
}
