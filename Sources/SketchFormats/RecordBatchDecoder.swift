import SketchCore

/// One entry of a ``RawLineBatch`` as a reader sees it once decoded (``RecordBatchDecoder``).
package enum DecodedEntry {
    /// A record and the NDJSON line it was parsed from (a decoded format's NDJSON form).
    case record(SketchRecord, line: UnsafeBufferPointer<UInt8>)
    /// An entry that is not a usable record: the reason and the bytes to quarantine.
    case rejected(reason: String, bytes: UnsafeBufferPointer<UInt8>)
    /// A damaged or unreadable stretch of the input at a stored byte offset, counted apart from
    /// records; an input that could not be opened is one at byte 0.
    case sourceError(byteOffset: Int, reason: String)
}

/// Turns the batches of input lines that the engine's batch readers make (``InputBatches``) into
/// records, rejections and source errors: the one place where an entry becomes a parsed record, a
/// rejected record with its reason and quarantined bytes, or a source error, whatever the input's
/// format and whoever reads (the streaming engine's workers, the preprocess map side, the
/// sequential ``DrawingSource`` reads). One decoder per thread: it owns its parser's scratch space.
package struct RecordBatchDecoder {
    private var parser: QuickDrawLineParser
    private let maximumLineLength: Int
    private let flatPoints: Bool
    private var strokes = FlatStrokes()
    private let noStrokes = FlatStrokes()

    /// A decoder whose records keep their strokes' `t` arrays when `keepsTimestamps`; with
    /// `flatPoints` the records' points come in flat storage (handed to the body, reused from record
    /// to record) and the record's own `drawing` is empty. `maximumLineLength` is the limit an
    /// overlong line went over, for its reason.
    package init(keepsTimestamps: Bool = true, flatPoints: Bool = false, maximumLineLength: Int = DrawingLimits.maximumLineBytes) {
        parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        self.flatPoints = flatPoints
        self.maximumLineLength = maximumLineLength
    }

    /// Decodes the entries of `batch` in order, handing each with its batch entry (line number)
    /// and the flat strokes of a record (empty unless `flatPoints`) to `body` until it returns
    /// false. Returns false when `body` stopped the batch.
    @discardableResult
    package mutating func decode(
        _ batch: RawLineBatch, _ body: (RawLineBatch.Entry, DecodedEntry, FlatStrokes) throws -> Bool
    ) rethrows -> Bool {
        for index in batch.entries.indices {
            let entry = batch.entries[index]
            let goesOn = try batch.withLine(index) { line -> Bool in
                switch entry.kind {
                case .line:
                    let parsed: Result<SketchRecord, FormatError>
                    do throws(FormatError) {
                        parsed = .success(flatPoints ? try parser.parse(line, strokesInto: &strokes) : try parser.parse(line))
                    } catch {
                        parsed = .failure(error)
                    }
                    switch parsed {
                    case .success(let record): return try body(entry, .record(record, line: line), flatPoints ? strokes : noStrokes)
                    case .failure(let error): return try body(entry, .rejected(reason: error.reason, bytes: line), noStrokes)
                    }
                case .overlong:
                    return try body(
                        entry, .rejected(reason: InputChunkReader.overlongReason(limit: maximumLineLength), bytes: line), noStrokes)
                case .failed(let reason):
                    return try body(entry, .rejected(reason: reason, bytes: line), noStrokes)
                case let .sourceError(byteOffset, reason):
                    return try body(entry, .sourceError(byteOffset: byteOffset, reason: reason), noStrokes)
                case .unopened(let reason):
                    return try body(entry, .sourceError(byteOffset: 0, reason: "cannot read input: \(reason)"), noStrokes)
                }
            }
            if !goesOn { return false }
        }
        return true
    }
}
