import SketchCore

/// A run of consecutive lines of one input file, copied out of the reader's buffer so that any
/// thread can parse it. `QuickDrawReader.chunks()` cuts the inputs into chunks; parsing a chunk
/// gives exactly the records and rejections that `QuickDrawReader.read` gives for those lines.
public struct LineChunk: Sendable {
    /// One line of the chunk: its bytes, or a rejection made while reading (an overlong line, a
    /// failing source, an input that cannot be opened).
    enum Entry: Sendable {
        case line(end: Int, number: Int)
        case rejected(RejectedLine)
    }

    /// The input file (as given, `-` for stdin).
    public let file: String
    /// The lines' bytes back to back, without newlines.
    let bytes: [UInt8]
    let entries: [Entry]
    /// Stored input bytes consumed over all inputs once this chunk was cut (for progress).
    public let consumedInputBytes: Int

    /// Lines in the chunk, blank ones included.
    public var lineCount: Int { entries.count }

    /// Parses the lines in order: `onRecord` for each record, `onRejected` for each unusable line;
    /// blank lines are skipped.
    public func parse<Failure: Error>(with parser: inout QuickDrawLineParser,
                                      onRecord: (SketchRecord, SourceLocation) throws(Failure) -> Void,
                                      onRejected: (RejectedLine) throws(Failure) -> Void) throws(Failure) {
        try forEachLine(onRejected: onRejected) { (line, location) throws(Failure) in
            let record: SketchRecord
            do throws(LineParseError) {
                record = try parser.parse(line)
            } catch {
                try onRejected(RejectedLine(location: location, reason: error.reason, bytes: Array(line)))
                return
            }
            try onRecord(record, location)
        }
    }

    /// Parses the lines in order like `parse(with:onRecord:onRejected:)`, with each record's
    /// points (no timestamps) in `strokes`, reused from record to record; the record's own
    /// `drawing` is empty.
    public func parseFlat<Failure: Error>(with parser: inout QuickDrawLineParser, strokes: inout FlatStrokes,
                                          onRecord: (SketchRecord, FlatStrokes, SourceLocation) throws(Failure) -> Void,
                                          onRejected: (RejectedLine) throws(Failure) -> Void) throws(Failure) {
        try forEachLine(onRejected: onRejected) { (line, location) throws(Failure) in
            let record: SketchRecord
            do throws(LineParseError) {
                record = try parser.parse(line, strokesInto: &strokes)
            } catch {
                try onRejected(RejectedLine(location: location, reason: error.reason, bytes: Array(line)))
                return
            }
            try onRecord(record, strokes, location)
        }
    }

    /// Hands each non-blank line with its location to `body` and each read-time rejection to
    /// `onRejected`, in line order.
    private func forEachLine<Failure: Error>(onRejected: (RejectedLine) throws(Failure) -> Void,
                                             _ body: (UnsafeBufferPointer<UInt8>, SourceLocation) throws(Failure) -> Void) throws(Failure) {
        try bytes.withUnsafeBufferPointer { (all) throws(Failure) in
            var start = 0
            for entry in entries {
                switch entry {
                case .line(let end, let number):
                    let line = UnsafeBufferPointer(rebasing: all[start..<end])
                    start = end
                    if Self.isBlank(line) { continue }
                    try body(line, SourceLocation(file: file, line: number))
                case .rejected(let rejected):
                    try onRejected(rejected)
                }
            }
        }
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }
}

/// The chunks of a reader's inputs, in input order (see `QuickDrawReader.chunks(linesPerChunk:)`).
public struct LineChunks: Sequence, IteratorProtocol {
    private let cursor: ChunkCursor

    init(reader: QuickDrawReader, linesPerChunk: Int, maximumChunkBytes: Int) {
        cursor = ChunkCursor(files: reader.files, maximumLineLength: reader.maximumLineLength,
                             linesPerChunk: Swift.max(1, linesPerChunk), maximumChunkBytes: Swift.max(1, maximumChunkBytes))
    }

    /// The next chunk, or nil after the last input.
    public mutating func next() -> LineChunk? { cursor.next() }
}

/// The reading position of `LineChunks`: the open input and its line splitter.
private final class ChunkCursor {
    let files: [String]
    let maximumLineLength: Int
    let linesPerChunk: Int
    let maximumChunkBytes: Int
    private var fileIndex = 0
    private var source: ByteSource?
    private var splitter: LineSplitter?
    private var lineNumber = 0
    private var finishedBytes = 0

    init(files: [String], maximumLineLength: Int, linesPerChunk: Int, maximumChunkBytes: Int) {
        self.files = files
        self.maximumLineLength = maximumLineLength
        self.linesPerChunk = linesPerChunk
        self.maximumChunkBytes = maximumChunkBytes
    }

    deinit { splitter?.deallocate() }

    func next() -> LineChunk? {
        while fileIndex < files.count {
            let file = files[fileIndex]
            if splitter == nil {
                do {
                    let opened = try ByteSource(path: file)
                    source = opened
                    splitter = LineSplitter(source: opened, maximumLineLength: maximumLineLength)
                    lineNumber = 0
                } catch {
                    fileIndex += 1
                    let reason = (error as? ByteSourceError)?.reason ?? "\(error)"
                    let rejected = RejectedLine(location: SourceLocation(file: file, line: 0),
                                                reason: "cannot read input: \(reason)", bytes: [])
                    return LineChunk(file: file, bytes: [], entries: [.rejected(rejected)], consumedInputBytes: finishedBytes)
                }
            }
            var bytes: [UInt8] = []
            var entries: [LineChunk.Entry] = []
            entries.reserveCapacity(linesPerChunk)
            var fileEnded = false
            while entries.count < linesPerChunk && bytes.count < maximumChunkBytes {
                guard let piece = splitter!.next() else {
                    fileEnded = true
                    break
                }
                lineNumber += 1
                let location = SourceLocation(file: file, line: lineNumber)
                switch piece {
                case .line(let line):
                    bytes.append(contentsOf: line)
                    entries.append(.line(end: bytes.count, number: lineNumber))
                case .overlong(let prefix):
                    entries.append(.rejected(RejectedLine(
                        location: location,
                        reason: "line longer than \(maximumLineLength) bytes (quarantined truncated to that length)",
                        bytes: prefix)))
                case .failed(let reason, let partial):
                    entries.append(.rejected(RejectedLine(location: location, reason: reason, bytes: partial)))
                }
            }
            let consumed = finishedBytes + source!.consumedInputBytes
            if fileEnded {
                finishedBytes = consumed
                splitter!.deallocate()
                splitter = nil
                source = nil
                fileIndex += 1
                if entries.isEmpty { continue }
            }
            return LineChunk(file: file, bytes: bytes, entries: entries, consumedInputBytes: consumed)
        }
        return nil
    }
}
