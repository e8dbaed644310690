import SketchCore
import SketchFormats
import SketchIO
import SketchPipeline

/// The C ABI of `sketchprep.read`: the inputs read by the engine, the one way every command reads
/// drawings (`DrawingSource`'s inputs decoded on `jobs` workers), from a thread of the library's
/// own (`DrawingReader`), taken by the caller batch by batch as flat arrays (`ReadBatchGroup`) with the
/// rejected lines of each batch beside its drawings.

/// Starts reading `pathCount` NUL-terminated paths packed in `paths` (`DrawingSource`: `format` nil
/// or empty for detection by content, `word` for `.bin` inputs) in batches of at most
/// `batchRecords` drawings and rejected lines together on `jobs` worker threads (0: the CPUs this process
/// may use, as the CLI's `--jobs` default). Never NULL: refused arguments give a reader that is
/// over at once, whose message says why.
@_cdecl("sketchprep_reader_open")
public func sketchprepReaderOpen(
    _ paths: UnsafePointer<CChar>?, _ pathCount: Int64, _ format: UnsafePointer<CChar>?, _ word: UnsafePointer<CChar>?,
    _ keepTimes: Int32, _ batchRecords: Int64, _ jobs: Int64
) -> UnsafeMutableRawPointer {
    let reader = makeReader(paths, pathCount, format, word, keepTimes, batchRecords, jobs)
    return Unmanaged.passRetained(reader).toOpaque()
}

private func makeReader(
    _ paths: UnsafePointer<CChar>?, _ pathCount: Int64, _ format: UnsafePointer<CChar>?, _ word: UnsafePointer<CChar>?,
    _ keepTimes: Int32, _ batchRecords: Int64, _ jobs: Int64
) -> DrawingReader {
    guard let paths, (1...Int64(Int32.max)).contains(pathCount), (1...1 << 20).contains(batchRecords) else {
        return DrawingReader(refusing: "read needs at least one path and a batch size in 1…\(1 << 20)")
    }
    let jobsRange = AvailableProcessors.jobsRange
    guard jobs == 0 || jobsRange.contains(Int(clamping: jobs)) else {
        return DrawingReader(refusing: "jobs must be between \(jobsRange.lowerBound) and \(jobsRange.upperBound)")
    }
    var inputs: [String] = []
    var cursor = paths
    for _ in 0..<pathCount {
        var end = cursor
        while end.pointee != 0 { end += 1 }
        let bytes = UnsafeRawBufferPointer(start: cursor, count: end - cursor)
        guard let input = PathBytes.decoded(bytes) else {
            return DrawingReader(refusing: "input \(PathBytes.escaped(bytes)): path is \(PathBytes.notUTF8)")
        }
        inputs.append(input)
        cursor = end + 1
    }
    let fileFormat: DrawingFileFormat?
    switch CText.optional(format) {
    case nil: fileFormat = nil
    case let name?:
        guard let known = DrawingFileFormat(rawValue: name) else {
            let names = DrawingFileFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return DrawingReader(refusing: "unknown format '\(name)'; expected one of \(names)")
        }
        fileFormat = known
    }
    return DrawingReader(
        .init(
            inputs: inputs, format: fileFormat, word: CText.optional(word), keepsTimes: keepTimes != 0,
            batchRecords: Int(batchRecords), jobs: jobs == 0 ? AvailableProcessors.count : Int(jobs)))
}

/// Waits for the reader's next batch and writes the element count of each of its arrays
/// (`ReadBatch.Field` order) to `counts`; 1, or 0 when the read is over.
@_cdecl("sketchprep_reader_next")
public func sketchprepReaderNext(_ reader: UnsafeMutableRawPointer, _ counts: UnsafeMutablePointer<Int64>) -> Int32 {
    let reader = Unmanaged<DrawingReader>.fromOpaque(reader).takeUnretainedValue()
    guard reader.next() else { return 0 }
    for (field, count) in reader.counts.enumerated() { counts[field] = Int64(count) }
    return 1
}

/// Copies the arrays of the reader's current batch into the buffers at `destinations`.
@_cdecl("sketchprep_reader_copy")
public func sketchprepReaderCopy(_ reader: UnsafeMutableRawPointer, _ destinations: UnsafePointer<UnsafeMutableRawPointer?>) {
    Unmanaged<DrawingReader>.fromOpaque(reader).takeUnretainedValue().copy(into: destinations)
}

/// Why the read failed, once `sketchprep_reader_next` returned 0; NULL when it did not.
@_cdecl("sketchprep_reader_message")
public func sketchprepReaderMessage(_ reader: UnsafeMutableRawPointer) -> UnsafePointer<CChar>? {
    UnsafePointer(Unmanaged<DrawingReader>.fromOpaque(reader).takeUnretainedValue().message?.pointer)
}

/// Stops the read, waits for its thread and frees the reader.
@_cdecl("sketchprep_reader_free")
public func sketchprepReaderFree(_ reader: UnsafeMutableRawPointer) {
    let reader = Unmanaged<DrawingReader>.fromOpaque(reader)
    reader.takeUnretainedValue().stop()
    reader.release()
}

/// C strings from the caller.
enum CText {
    /// The string at `pointer`, nil for NULL or an empty string.
    static func optional(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }
}
