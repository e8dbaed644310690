import SketchCore
import SketchFormats

/// The reading side of the engine: the line batches of the selected input chunks, in order, on
/// the calling thread (the workers of `OrderedParallelMap` parse them). NDJSON chunks are read by
/// `InputChunkReader`, `.bin` and stroke-3 inputs by `DecodedRecordBatches` (as NDJSON lines). Also keeps what the run
/// reports about its inputs: bytes consumed, inputs that could not be opened, and per chunk the
/// stored size and SHA-256 when hashing.
final class InputBatches: Sequence, IteratorProtocol {
    /// One unit of input: a path, the stored byte range to read (nil: the whole input), and the
    /// input's format with the word of its records (`.bin` and stroke-3 only).
    struct Source {
        var path: String
        var range: Range<Int>?
        var format: DrawingFileFormat = .ndjson
        var word = ""
    }

    private let sources: [Source]
    private var pending: [Int]
    private let hashing: Bool
    private let maximumLineLength: Int
    private let linesPerBatch: Int
    private let recordLimit: Int?
    private var current: (any LineBatchReading)?
    private var currentIndex = -1
    private var finishedBytes = 0
    /// Chunks that could not be opened.
    private(set) var unopened: Set<Int> = []
    /// Per chunk read: stored bytes and SHA-256 (empty when not hashing or not opened).
    private(set) var digests: [Int: (bytes: Int, sha256: String)] = [:]

    /// Reads `selected` (indices into `sources`, in that order); `recordLimit` stops each source
    /// after that many non-blank lines (`--limit`).
    init(sources: [Source], selected: [Int], hashing: Bool, maximumLineLength: Int = DrawingLimits.maximumLineBytes,
         linesPerBatch: Int = 1024, recordLimit: Int? = nil) {
        self.sources = sources
        pending = selected.reversed()
        self.hashing = hashing
        self.maximumLineLength = maximumLineLength
        self.linesPerBatch = Swift.max(1, linesPerBatch)
        self.recordLimit = recordLimit
    }

    /// Stored bytes consumed so far over all chunks.
    var consumedBytes: Int { finishedBytes + (current?.consumedInputBytes ?? 0) }

    func next() -> RawLineBatch? {
        while true {
            if let current, let batch = current.nextBatch() {
                if case .sourceError(0, let reason)? = batch.entries.first?.kind, reason.hasPrefix("cannot read input") {
                    unopened.insert(currentIndex)
                }
                return batch
            }
            if let current {
                digests[currentIndex] = (current.consumedInputBytes, current.digest() ?? "")
                finishedBytes += current.consumedInputBytes
            }
            current = nil
            guard let index = pending.popLast() else { return nil }
            currentIndex = index
            let source = sources[index]
            current = source.format.batchReader(path: source.path, range: source.range, chunk: index, hashing: hashing, word: source.word,
                                                maximumLineLength: maximumLineLength, batchLines: linesPerBatch, recordLimit: recordLimit)
        }
    }
}
