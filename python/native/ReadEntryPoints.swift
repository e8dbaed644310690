import SketchCore
import SketchFormats

/// The C ABI of `sketchprep.read`: the inputs read by `DrawingSource`, the one way every command
/// reads drawings, handed to the caller in batches of flat arrays (`ReadBatch`) through a callback,
/// with the rejected lines of each batch beside its drawings.

/// The caller's function for each batch: `context` and the batch; returns 0 to stop reading.
public typealias ReadCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32

/// Reads `pathCount` NUL-terminated paths packed in `paths` (`DrawingSource`: `format` nil or empty
/// for detection by content, `word` for `.bin` inputs), calling `callback` with batches of at most
/// `batchDrawings` drawings. The result's message says why reading failed (a missing input, no
/// readable input); its sizes are drawings read, lines rejected, batches delivered, 0, refused.
@_cdecl("sketchprep_read")
public func sketchprepRead(
    _ paths: UnsafePointer<CChar>?, _ pathCount: Int64, _ format: UnsafePointer<CChar>?, _ word: UnsafePointer<CChar>?,
    _ keepTimes: Int32, _ batchDrawings: Int64, _ callback: ReadCallback?, _ context: UnsafeMutableRawPointer?,
    _ sizes: UnsafeMutablePointer<Int64>
) -> UnsafeMutableRawPointer {
    let result = BatchResult()
    guard let paths, let callback, (1...Int64(Int32.max)).contains(pathCount), (1...1 << 20).contains(batchDrawings) else {
        return BatchResult(refusing: "read needs at least one path, a callback and a batch size in 1…\(1 << 20)").reporting(to: sizes)
    }
    var inputs: [String] = []
    var cursor = paths
    for _ in 0..<pathCount {
        var end = cursor
        while end.pointee != 0 { end += 1 }
        inputs.append(String(decoding: UnsafeRawBufferPointer(start: cursor, count: end - cursor), as: UTF8.self))
        cursor = end + 1
    }
    let fileFormat: DrawingFileFormat?
    switch CText.optional(format) {
    case nil: fileFormat = nil
    case let name?:
        guard let known = DrawingFileFormat(rawValue: name) else {
            let names = DrawingFileFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return BatchResult(refusing: "unknown format '\(name)'; expected one of \(names)").reporting(to: sizes)
        }
        fileFormat = known
    }
    var counts = (drawings: Int64(0), rejected: Int64(0), batches: Int64(0))
    do {
        var source = try DrawingSource(inputs: inputs, format: fileFormat, word: CText.optional(word))
        source.keepsTimestamps = keepTimes != 0
        var batch = ReadBatch()
        var stopped = false
        func deliver() {
            guard !batch.isEmpty, !stopped else { return }
            counts.batches += 1
            stopped = batch.handOver(to: callback, context: context) == 0
            batch.removeAll()
        }
        func delivered() -> Bool {
            counts.drawings += 1
            if batch.drawingCount >= batchDrawings { deliver() }
            return !stopped
        }
        func reject(_ rejected: RejectedLine) {
            guard !stopped else { return }
            batch.reject(rejected)
            counts.rejected += 1
        }
        if fileFormat == .bin {
            // `.bin` drawings have no times: the reader's flat points (no arrays per stroke) lose nothing.
            try source.readFlat(
                while: { record, points, _ in
                    batch.append(record, points: points)
                    return delivered()
                }, onRejected: reject)
        } else {
            try source.read(
                while: { record, _ in
                    batch.append(record)
                    return delivered()
                }, onRejected: reject)
        }
        deliver()
    } catch {
        result.message = CString("\(error)")
    }
    result.sizesOverride = [counts.drawings, counts.rejected, counts.batches, 0]
    return result.reporting(to: sizes)
}

/// One array of a batch handed to the read callback, valid while the callback runs (fields in
/// `ReadBatch.Field`); writes its element count to `count`, NULL for an unknown field.
@_cdecl("sketchprep_batch_field")
public func sketchprepBatchField(
    _ batch: UnsafeMutableRawPointer, _ field: Int64, _ count: UnsafeMutablePointer<Int64>
) -> UnsafeRawPointer? {
    let fields = Unmanaged<ReadBatch.Fields>.fromOpaque(batch).takeUnretainedValue()
    guard fields.pointers.indices.contains(Int(field)) else {
        count.pointee = 0
        return nil
    }
    count.pointee = Int64(fields.pointers[Int(field)].count)
    return fields.pointers[Int(field)].address
}

/// C strings from the caller.
enum CText {
    /// The string at `pointer`, nil for NULL or an empty string.
    static func optional(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }
}
