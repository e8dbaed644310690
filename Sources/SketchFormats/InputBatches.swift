import SketchCore

/// The reading side of the engine: the raw batches of the selected input chunks, in order, on
/// the calling thread (the engine's workers decode them with ``RecordBatchDecoder``; a sequential
/// read decodes them as they come). Each chunk is cut by its format's plug-in
/// (`InputFormatPlugin.batchReader`: lines, `.bin` record blocks, stroke-3 arrays, an SVG file's
/// bytes), and each batch carries its format, path and word for the decoder. Also keeps what the run
/// reports about its inputs: bytes consumed, chunks that could not be opened, and per chunk the
/// stored size and SHA-256 when hashing.
package final class InputBatches: Sequence, IteratorProtocol {
    /// One unit of input: a path, the stored byte range to read (nil: the whole input), and the
    /// input's format with the word of its records (`InputFormatPlugin.word(ofFile:given:)`).
    package struct Source: Sendable {
        package var path: String
        package var range: Range<Int>?
        package var format: DrawingFileFormat = .ndjson
        package var word = ""

        /// A chunk of `path` read as `format`, its records getting `word` when they carry none.
        package init(path: String, range: Range<Int>? = nil, format: DrawingFileFormat = .ndjson, word: String = "") {
            self.path = path
            self.range = range
            self.format = format
            self.word = word
        }
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
    private let selectedCount: Int
    /// Chunks that could not be opened.
    package private(set) var unopened: Set<Int> = []
    /// Per chunk read: stored bytes and SHA-256 (empty when not hashing or not opened).
    package private(set) var digests: [Int: (bytes: Int, sha256: String)] = [:]

    /// Lines per batch, the engine's unit of parallel work, unless a reader says otherwise.
    package static let defaultLinesPerBatch = 1024

    /// Reads `selected` (indices into `sources`, in that order); `recordLimit` stops each source
    /// after that many non-blank lines (`--limit`).
    package init(
        sources: [Source], selected: [Int], hashing: Bool, maximumLineLength: Int = DrawingLimits.maximumLineBytes,
        linesPerBatch: Int = defaultLinesPerBatch, recordLimit: Int? = nil
    ) {
        self.sources = sources
        pending = selected.reversed()
        selectedCount = selected.count
        self.hashing = hashing
        self.maximumLineLength = maximumLineLength
        self.linesPerBatch = Swift.max(1, linesPerBatch)
        self.recordLimit = recordLimit
    }

    /// Stored bytes consumed so far over all chunks.
    package var consumedBytes: Int { finishedBytes + (current?.consumedInputBytes ?? 0) }

    package func next() -> RawLineBatch? {
        while true {
            if let current, var batch = current.nextBatch() {
                if case .unopened? = batch.entries.first?.kind { unopened.insert(currentIndex) }
                let source = sources[currentIndex]
                (batch.format, batch.path, batch.word) = (source.format, source.path, source.word)
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
            current = source.format.batchReader(
                path: source.path, range: source.range, chunk: index, hashing: hashing, word: source.word,
                maximumLineLength: maximumLineLength, batchLines: linesPerBatch, recordLimit: recordLimit)
        }
    }

    /// After the last batch: throws ``FormatError/Kind/noInputReadable`` when there were inputs
    /// (the selected chunks and `refused` more that were refused before reading, such as a file
    /// of no known format) and none of them could be opened; `count` is the number of inputs the
    /// message names. The one place this error is raised.
    package func requireAnInputOpened(refused: Int = 0, count: Int) throws(FormatError) {
        guard selectedCount + refused > 0, unopened.count == selectedCount else { return }
        throw FormatError(
            .noInputReadable,
            "none of the \(count) inputs could be read"
                + " (each is reported above with its reason); check the paths and their permissions")
    }
}
