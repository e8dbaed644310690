import SketchCore

/// What one C call produced, owned by the caller until `sketchprep_result_free`: the simplified
/// strokes (in the layout of `StrokeBatch`, integer coordinates), the drawings that were refused
/// with their reasons, or the reason the whole call was refused.
final class BatchResult {
    /// Simplified points, `x0, y0, x1, y1, …`.
    var points: [Int32] = []
    /// `strokeCount + 1` offsets into the points (counted in points).
    var strokeOffsets: [Int64] = [0]
    /// `drawingCount + 1` offsets into the strokes.
    var drawingOffsets: [Int64] = [0]
    /// Refused drawings: batch index and reason.
    var failures: [(index: Int64, reason: CString)] = []
    /// Why the whole call was refused (bad options or layout); nil when it was not.
    var message: CString?
    /// Bytes the call returns (`sketchprep_result_bytes`), e.g. a manifest read.
    var bytes: ByteCopy?

    init() {}

    init(refusing reason: String) { message = CString(reason) }

    func fail(_ index: Int, _ reason: String) { failures.append((Int64(index), CString(reason))) }

    /// Ends the current drawing.
    func closeDrawing() { drawingOffsets.append(Int64(strokeOffsets.count - 1)) }

    /// Appends the strokes of `strokes` as the next strokes; false (and nothing appended) when a
    /// coordinate is not an Int32 (simplified coordinates are integers in 0...scale_target).
    func append(_ strokes: FlatStrokes) -> Bool {
        for value in strokes.x where Int32(exactly: value) == nil { return false }
        for value in strokes.y where Int32(exactly: value) == nil { return false }
        for index in 0..<strokes.strokeCount {
            for point in strokes.pointRange(ofStroke: index) {
                points.append(Int32(strokes.x[point]))
                points.append(Int32(strokes.y[point]))
            }
            strokeOffsets.append(Int64(points.count / 2))
        }
        return true
    }

    /// Writes the sizes: points, strokes, drawings, refused drawings, whole call refused.
    private func writeSizes(to sizes: UnsafeMutablePointer<Int64>) {
        let counts = [
            Int64(bytes?.count ?? points.count / 2), Int64(strokeOffsets.count - 1), Int64(drawingOffsets.count - 1),
            Int64(failures.count),
        ]
        for (index, count) in counts.prefix(4).enumerated() { sizes[index] = count }
        sizes[4] = message == nil ? 0 : 1
    }

    /// Writes the sizes and hands the result to C.
    func reporting(to sizes: UnsafeMutablePointer<Int64>) -> UnsafeMutableRawPointer {
        writeSizes(to: sizes)
        return Unmanaged.passRetained(self).toOpaque()
    }

    /// The result behind a pointer from `reporting(to:)`.
    static func from(_ pointer: UnsafeMutableRawPointer) -> BatchResult {
        Unmanaged<BatchResult>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// A NUL-terminated UTF-8 copy of a string at a fixed address, freed with its owner. Sendable: its
/// bytes are written once, in `init`, and only read afterwards.
final class CString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ text: String) {
        let bytes = text.utf8CString
        pointer = .allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { pointer.initialize(from: $0.baseAddress!, count: $0.count) }
    }

    deinit { pointer.deallocate() }
}

/// A copy of bytes at a fixed address, freed with its owner.
final class ByteCopy {
    let pointer: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        pointer = .allocate(capacity: max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { pointer.initialize(from: base, count: $0.count) } }
    }

    deinit { pointer.deallocate() }
}
