import SketchIO

/// Streams a C-order, little-endian `.npy` file of shape `(count, itemShape…)` whose row count is
/// known only at the end: rows are appended, and ``commit()`` rewrites the first dimension of the
/// header in place (numpy's own header keeps room for that) and renames the temporary file onto
/// the destination. The result is byte-identical to `numpy.save` of the same array.
public final class NPYWriter {
    /// Element type.
    public let dtype: NPYDType
    /// Shape of one row (everything after the first dimension).
    public let itemShape: [Int]
    /// Rows appended so far.
    public private(set) var count = 0
    private let file: AtomicFileWriter
    private let headerLength: Int
    private let elementsPerRow: Int

    /// Starts writing `path` (atomically: nothing appears there before ``commit()``; a stream such
    /// as `-` for standard output receives the whole file on ``commit()``).
    public init(path: String, dtype: NPYDType, itemShape: [Int]) throws {
        self.dtype = dtype
        self.itemShape = itemShape
        elementsPerRow = itemShape.reduce(1, *)
        file = try AtomicFileWriter(path: path, spoolsStream: true)
        let header = NPYFormat.header(dtype: dtype, shape: [0] + itemShape)
        headerLength = header.count
        try file.write(header)
    }

    /// Appends whole rows of float32 values (a multiple of the row size).
    public func append(_ values: [Float]) throws {
        precondition(dtype == .float32, "NPYWriter: float32 values for a \(dtype) file")
        try appendRaw(values)
    }

    /// Appends whole rows of int32 values.
    public func append(_ values: [Int32]) throws {
        precondition(dtype == .int32, "NPYWriter: int32 values for a \(dtype) file")
        try appendRaw(values)
    }

    /// Appends whole rows of bytes.
    public func append(_ values: [UInt8]) throws {
        precondition(dtype == .uint8, "NPYWriter: uint8 values for a \(dtype) file")
        try appendRaw(values)
    }

    /// Writes the final row count into the header and moves the file into place.
    public func commit() throws {
        let header = NPYFormat.header(dtype: dtype, shape: [count] + itemShape)
        precondition(header.count == headerLength, "NPY header grew beyond numpy's reserved space")
        try file.overwrite(header, at: 0)
        try file.commit()
    }

    /// The complete `.npy` bytes of an in-memory array (what `numpy.save` would write).
    public static func encode<T: BitwiseCopyable>(_ values: [T], dtype: NPYDType, shape: [Int]) -> [UInt8] {
        precondition(MemoryLayout<T>.stride == dtype.size, "element size does not match \(dtype)")
        precondition(values.count == shape.reduce(1, *), "value count does not match shape \(shape)")
        var bytes = NPYFormat.header(dtype: dtype, shape: shape)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        return bytes
    }

    private func appendRaw<T: BitwiseCopyable>(_ values: [T]) throws {
        precondition(values.count % elementsPerRow == 0, "NPYWriter: partial row appended")
        try file.write(rawValuesOf: values)
        count += elementsPerRow == 0 ? 0 : values.count / elementsPerRow
    }
}
