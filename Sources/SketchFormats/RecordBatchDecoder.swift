import SketchCore

/// One entry of a ``RawLineBatch`` as a reader sees it once decoded (``RecordBatchDecoder``).
package enum DecodedEntry {
    /// A record and its quarantine form (``RecordLine``: the NDJSON line it was parsed from, or
    /// the one its format's record stands for, made when asked).
    case record(SketchRecord, line: RecordLine)
    /// An entry that is not a usable record: the reason and the bytes to quarantine.
    case rejected(reason: String, bytes: UnsafeBufferPointer<UInt8>)
    /// A damaged or unreadable stretch of the input at a stored byte offset, counted apart from
    /// records; an input that could not be opened is one at byte 0.
    case sourceError(byteOffset: Int, reason: String)
}

/// Turns the batches of raw entries that the engine's batch readers make (``InputBatches``) into
/// records, rejections and source errors: the one place where an entry becomes a decoded record
/// (by its format's plug-in, ``InputFormatPlugin/decode(_:in:with:)``), a rejected record with its
/// reason and quarantined bytes, or a source error, whatever the input's format and whoever reads
/// (the streaming engine's workers, the preprocess map side, the sequential ``DrawingSource``
/// reads). One decoder per thread: it owns its scratch space.
package struct RecordBatchDecoder {
    private var scratch: RecordDecodingScratch
    private let maximumLineLength: Int
    private let noStrokes = FlatStrokes()

    /// A decoder whose records keep their strokes' `t` arrays when `keepsTimestamps`; with
    /// `flatPoints` the records' points come in flat storage (handed to the body, reused from record
    /// to record) and the record's own `drawing` is empty. `maximumLineLength` is the limit an
    /// overlong line went over, for its reason.
    package init(keepsTimestamps: Bool = true, flatPoints: Bool = false, maximumLineLength: Int = DrawingLimits.maximumLineBytes) {
        scratch = RecordDecodingScratch(keepsTimestamps: keepsTimestamps, flatPoints: flatPoints)
        self.maximumLineLength = maximumLineLength
    }

    /// Decodes the entries of `batch` in order, handing each with its batch entry (line number)
    /// and the flat strokes of a record (empty unless `flatPoints`) to `body` until it returns
    /// false. Returns false when `body` stopped the batch.
    @discardableResult
    package mutating func decode(
        _ batch: RawLineBatch, _ body: (RawLineBatch.Entry, DecodedEntry, FlatStrokes) throws -> Bool
    ) rethrows -> Bool {
        let plugin = batch.format.plugin
        for index in batch.entries.indices {
            let entry = batch.entries[index]
            let goesOn = try batch.withLine(index) { line -> Bool in
                switch entry.kind {
                case .line:
                    switch plugin.decode(line, in: batch, with: &scratch) {
                    case let .record(record, recordLine):
                        return try body(entry, .record(record, line: recordLine), scratch.flatPoints ? scratch.strokes : noStrokes)
                    case let .rejected(reason, nil):
                        return try body(entry, .rejected(reason: reason, bytes: line), noStrokes)
                    case let .rejected(reason, bytes?):
                        return try bytes.withUnsafeBufferPointer { try body(entry, .rejected(reason: reason, bytes: $0), noStrokes) }
                    case .sourceError(let reason):
                        return try body(entry, .sourceError(byteOffset: 0, reason: reason), noStrokes)
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
