import SketchCore
import SketchDataset
import SketchFormats

/// What a worker makes of one batch of records (``RecordStream``): the stage's output, the
/// batch's counts, its rejections in input order, its stage seconds and, while a filter needs
/// them (``FilterCheck``), the words and country codes of every record read before filters.
package struct BatchOutcome<Output: Sendable>: Sendable {
    /// The input chunk the batch belongs to (the index into the stream's sources).
    package var chunk: Int
    /// The stage's output for the batch's written records.
    package var output: Output
    /// Records read, written, filtered and rejected, and source errors, in this batch; every
    /// rejection is in ``rejections`` and not yet in any quarantine.
    package var counts = RecordCounts()
    /// The batch's rejections in input order, for the consumer to locate and quarantine.
    package var rejections: [BatchRejection] = []
    /// Worker seconds per stage.
    package var seconds = StageSeconds()
    /// Words of every record read (only when the stream tracks them).
    package var seenWords = ClassWords()
    /// Country codes of every record read (only when the stream tracks them).
    package var seenCountries: Set<String> = []
    /// Per image file read as its own chunk (a partition of an image directory): its index, stored
    /// bytes and SHA-256, measured on the worker.
    package var measuredFiles: [(index: Int, bytes: Int, sha256: String)] = []

    /// An empty outcome of `chunk` around `output`.
    package init(chunk: Int, output: Output) {
        self.chunk = chunk
        self.output = output
    }

    /// Counts a rejection and keeps it for the consumer.
    package mutating func reject(_ rejection: BatchRejection) {
        if case .sourceError = rejection {
            counts.sourceErrors += 1
        } else {
            counts.read += 1
            counts.rejected += 1
        }
        rejections.append(rejection)
    }
}

/// One rejection of a batch, before the consumer gives it its place in the input (the chunk's
/// file name and line base are the consumer's to know).
package enum BatchRejection: Sendable {
    /// A record refused: its line within the chunk (0: no line), the reason and the bytes to
    /// quarantine.
    case record(lineInChunk: Int, reason: String, bytes: [UInt8])
    /// A damaged or unreadable stretch of the chunk at a stored byte offset.
    case sourceError(byteOffset: Int, reason: String)
    /// A whole file refused (an image that does not decode): its index in its listing, its path
    /// and the reason.
    case file(index: Int, path: String, reason: String)

    /// The rejection as quarantined from a chunk that is the whole of the input `file` (its
    /// lines are the file's).
    package func rejectedLine(inFile file: String) -> RejectedLine {
        switch self {
        case let .record(line, reason, bytes): RejectedLine(location: SourceLocation(file: file, line: line), reason: reason, bytes: bytes)
        case let .sourceError(byteOffset, reason): .sourceError(file, byteOffset: byteOffset, reason: reason)
        case let .file(_, path, reason): .file(path, reason: reason)
        }
    }
}

extension RecordCounts {
    /// Adds the record counts of `other` (read, written, filtered, rejected, source errors).
    package mutating func add(_ other: RecordCounts) {
        read += other.read
        written += other.written
        filtered += other.filtered
        rejected += other.rejected
        sourceErrors += other.sourceErrors
    }
}
