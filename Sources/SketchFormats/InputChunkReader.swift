import SketchCore
import SketchIO
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch of raw entries of one input chunk (NDJSON or CSV lines, `.bin` record blocks, stroke-3
/// arrays, an SVG file), handed from the reading thread to the workers, whose decoder hands each
/// `line` entry to its format's plug-in (``format``). Entries are copied into one buffer, so a
/// batch owns its bytes.
package struct RawLineBatch: Sendable {
    /// What one entry of the batch is.
    package enum Kind: Sendable {
        /// An entry for the format's plug-in to decode (a line, a record block, a file).
        case line
        /// A line over the length limit (its first bytes are kept for the quarantine).
        case overlong
        /// A record that cannot be used, with the reason: a line cut short by a failing input
        /// (the bytes are what was read of it; a source error entry follows), or a `.bin` or
        /// stroke-3 record the decoder rejected (the bytes are its quarantine form).
        case failed(String)
        /// A damaged or unreadable stretch of the input at a stored byte offset (a gzip member
        /// with a bad CRC, a truncated tail, a read error): counted apart from records.
        case sourceError(byteOffset: Int, reason: String)
        /// The input could not be opened (the reason says why): one source error at byte 0, and
        /// the input counts as not read (``InputBatches/requireAnInputOpened(refused:count:)``).
        case unopened(reason: String)
    }

    /// One line: its number within the chunk (1-based; blank lines are counted, not listed) and
    /// where its bytes are in ``bytes``.
    package struct Entry: Sendable {
        package var lineInChunk: Int
        package var kind: Kind
        package var range: Range<Int>
    }

    /// Index of the chunk in the run's chunk list.
    package var chunk: Int
    package var bytes: [UInt8] = []
    package var entries: [Entry] = []
    /// The format whose plug-in decodes the `line` entries (`InputFormatPlugin.decode`).
    package var format: DrawingFileFormat = .ndjson
    /// The input's path (stroke-3 keys, SVG keys and rejections name it).
    package var path = ""
    /// The word of records that carry none (`InputFormatPlugin.word(ofFile:given:)`).
    package var word = ""
    /// The header layout of a Kaggle CSV chunk.
    package var csvLayout: KaggleCSV.Layout?

    /// The bytes of entry `index`.
    package func withLine<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[entries[index].range])) }
    }
}

/// Reads one input chunk (a whole file, plain or gzip, or a newline-aligned byte range of a plain
/// file) as ``RawLineBatch``es of at most `batchLines` lines; a batch also ends after the line
/// that takes it past ``batchByteTarget`` bytes, so the batches in flight stay small whatever the
/// line lengths.
package final class InputChunkReader: LineBatchReading {
    private let source: ByteSource?
    private var splitter: LineSplitter?
    private let chunk: Int
    private let batchLines: Int
    /// Bytes after which a batch ends (at the next line boundary).
    package static let batchByteTarget = 1 << 20
    private var reservation = BatchByteReservation()
    private var lineNumber = 0
    private var openFailure: String?
    private var reportedDamage = false
    /// Whether the chunk starts at the beginning of its file (a byte order mark may open it).
    private let startsFile: Bool
    /// Stop after this many non-blank lines (`--limit`); nil: read everything.
    private let recordLimit: Int?
    private var records = 0
    /// Stored offset of the chunk's first byte (source error offsets are file offsets).
    private let rangeStart: Int
    private let maximumLineLength: Int
    private let path: String

    /// Opens the chunk; an input that cannot be opened yields one `sourceError` entry.
    package init(
        path: String, range: Range<Int>?, chunk: Int, hashing: Bool, maximumLineLength: Int = DrawingLimits.maximumLineBytes,
        batchLines: Int = 1024,
        recordLimit: Int? = nil
    ) {
        self.recordLimit = recordLimit
        self.chunk = chunk
        self.path = path
        startsFile = (range?.lowerBound ?? 0) == 0
        rangeStart = range?.lowerBound ?? 0
        self.batchLines = batchLines
        self.maximumLineLength = maximumLineLength
        do {
            let source = try ByteSource(path: path, hashing: hashing, range: range)
            self.source = source
            splitter = LineSplitter(source: source, maximumLineLength: maximumLineLength)
        } catch {
            source = nil
            openFailure = (error as? IOError)?.reason ?? "\(error)"
        }
    }

    deinit { splitter?.deallocate() }

    /// Stored bytes consumed so far.
    package var consumedInputBytes: Int { source?.consumedInputBytes ?? 0 }

    /// Index of the chunk in the run's chunk list.
    package var chunkIndex: Int { chunk }

    /// SHA-256 of the stored bytes (when hashing), after the last batch.
    package func digest() -> String? { source?.digest() }

    /// The next batch, or nil at the end of the chunk.
    package func nextBatch() -> RawLineBatch? {
        var batch = RawLineBatch(chunk: chunk)
        if let reason = openFailure {
            openFailure = nil
            batch.entries.append(.init(lineInChunk: 0, kind: .unopened(reason: reason), range: 0..<0))
            return batch
        }
        guard splitter != nil else {
            // Damaged gzip members are reported once, after the records they still yielded.
            guard !reportedDamage, let source, !source.damage.isEmpty else { return nil }
            reportedDamage = true
            for damage in source.damage {
                batch.entries.append(
                    .init(lineInChunk: 0, kind: .sourceError(byteOffset: damage.byteOffset, reason: damage.reason), range: 0..<0))
            }
            return batch
        }
        reservation.reserve(&batch)
        while batch.entries.count < batchLines, batch.bytes.count < Self.batchByteTarget, records < recordLimit ?? Int.max,
            let piece = splitter!.next()
        {
            lineNumber += 1
            let start = batch.bytes.count
            switch piece {
            case .line(var bytes):
                if lineNumber == 1 && startsFile && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                    bytes = UnsafeBufferPointer(rebasing: bytes[3...])  // a UTF-8 byte order mark
                }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                records += 1
                batch.bytes.append(contentsOf: bytes)
                batch.entries.append(.init(lineInChunk: lineNumber, kind: .line, range: start..<batch.bytes.count))
            case .overlong(let prefix):
                records += 1
                batch.bytes.append(contentsOf: prefix)
                batch.entries.append(.init(lineInChunk: lineNumber, kind: .overlong, range: start..<batch.bytes.count))
            case .failed(let reason, let partial):
                if !partial.isEmpty {
                    batch.bytes.append(contentsOf: partial)
                    batch.entries.append(.init(lineInChunk: lineNumber, kind: .failed(reason), range: start..<batch.bytes.count))
                }
                batch.entries.append(
                    .init(
                        lineInChunk: 0, kind: .sourceError(byteOffset: rangeStart + (source?.consumedInputBytes ?? 0), reason: reason),
                        range: batch.bytes.count..<batch.bytes.count))
            }
        }
        if batch.entries.isEmpty {
            splitter?.deallocate()
            splitter = nil
            return nextBatch()
        }
        reservation.filled(batch)
        return batch
    }

    /// The reason an overlong line was cut, for its quarantine entry.
    package static func overlongReason(limit: Int = DrawingLimits.maximumLineBytes) -> String {
        "line longer than \(limit) bytes (quarantined truncated to that length)"
    }

    /// Number of lines (newlines) in the first `bytes` bytes of the plain file `path`: the line
    /// number offset of a chunk that starts there. Read only when a chunk has something to
    /// quarantine.
    package static func lineCount(of path: String, before bytes: Int) throws -> Int {
        guard bytes > 0 else { return 0 }
        let source = try ByteSource(path: path, range: 0..<bytes)
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if read == 0 { break }
            buffer.withUnsafeBufferPointer { pointer in
                var p = pointer.baseAddress!
                var left = read
                while left > 0, let found = memchr(p, 0x0A, left) {
                    count += 1
                    let next = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) + 1
                    left -= next - p
                    p = next
                }
            }
        }
        return count
    }
}
