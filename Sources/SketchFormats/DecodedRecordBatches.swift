import SketchCore

/// What the engine's reading thread pulls batches from: one input chunk read as
/// ``RawLineBatch``es of NDJSON lines, whatever the input's format.
package protocol LineBatchReading: AnyObject {
    /// The next batch, or nil at the end of the chunk.
    func nextBatch() -> RawLineBatch?
    /// Stored bytes consumed so far.
    var consumedInputBytes: Int { get }
    /// SHA-256 of the stored bytes (when hashing), after the last batch.
    func digest() -> String?
}

/// Reads one Google `.bin` (plain or gzip) or sketch-rnn stroke-3 `.npz` input as batches of
/// NDJSON lines: each record is decoded on the reading thread (`GoogleBinaryCursor`,
/// `Stroke3NPZ`) and written as one line in Google's simplified layout
/// (`SimplifiedNDJSONWriter.encode`), so the workers parse and process it like any NDJSON line and
/// every stage, the quarantine and the tally stay the same for every format. An entry's line
/// number is the record's number in the file (stroke-3: its position, train then valid then
/// test). A record the decoder rejects is a `failed` entry carrying its quarantine form (a `.bin`
/// record: its byte offset, reason and hex bytes); a stroke-3 file that cannot be decoded, or an
/// input that cannot be opened, is one source error. Stroke-3 records get the key
/// `<file name>#<split>#<index>`, an empty country and timestamp and `recognized` true.
package final class DecodedRecordBatches: LineBatchReading {
    private let path: String
    private let format: DrawingFileFormat
    private let word: String
    private let chunk: Int
    private let hashing: Bool
    private let batchLines: Int
    private let recordLimit: Int?
    private var records = 0
    private var binary: GoogleBinaryCursor?
    private var stroke3: [(number: Int, record: SketchRecord?, key: String, reason: String)]?
    private var stroke3Next = 0
    private var stroke3Failure: String?
    private var stroke3Bytes = 0
    private var stroke3Digest: String?
    private var line: [UInt8] = []

    /// Reads `path` as `format` (`.bin` or `.stroke3`); its records get `word`.
    package init(path: String, format: DrawingFileFormat, word: String, chunk: Int, hashing: Bool,
                 batchLines: Int = 1024, recordLimit: Int? = nil) {
        precondition(format != .ndjson, "NDJSON is read by InputChunkReader")
        self.path = path
        self.format = format
        self.word = word
        self.chunk = chunk
        self.hashing = hashing
        self.batchLines = max(1, batchLines)
        self.recordLimit = recordLimit
        if format == .bin { binary = GoogleBinaryCursor(path: path, word: word, hashing: hashing) }
    }

    package var consumedInputBytes: Int { binary?.consumedInputBytes ?? stroke3Bytes }

    package func digest() -> String? { binary?.digest() ?? stroke3Digest }

    package func nextBatch() -> RawLineBatch? {
        var batch = RawLineBatch(chunk: chunk)
        if format == .stroke3 && stroke3 == nil { decodeStroke3() }
        if let reason = stroke3Failure {
            stroke3Failure = nil
            batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
            return batch
        }
        while batch.entries.count < batchLines, batch.bytes.count < InputChunkReader.batchByteTarget,
              records < recordLimit ?? Int.max, let (number, item) = nextItem() {
            let start = batch.bytes.count
            switch item {
            case .record(let record):
                records += 1
                line.removeAll(keepingCapacity: true)
                SimplifiedNDJSONWriter.encode(record, into: &line)
                batch.bytes += line
                batch.entries.append(.init(lineInChunk: number, kind: .line, range: start..<batch.bytes.count))
            case .rejected(let rejected) where rejected.location.line == 0:
                batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: rejected.reason), range: start..<start))
            case .rejected(let rejected):
                records += 1
                batch.bytes += rejected.bytes
                batch.entries.append(.init(lineInChunk: number, kind: .failed(rejected.reason), range: start..<batch.bytes.count))
            }
        }
        return batch.entries.isEmpty ? nil : batch
    }

    private enum Item {
        case record(SketchRecord)
        case rejected(RejectedLine)
    }

    /// The next record or rejection with its number in the file.
    private func nextItem() -> (Int, Item)? {
        if let binary {
            switch binary.next() {
            case let .record(record, number)?: return (number, .record(record))
            case let .rejected(line)?: return (line.location.line, .rejected(line))
            case nil: return nil
            }
        }
        guard let stroke3, stroke3Next < stroke3.count else { return nil }
        let (number, record, key, reason) = stroke3[stroke3Next]
        stroke3Next += 1
        if let record { return (number, .record(record)) }
        return (number, .rejected(RejectedLine(location: SourceLocation(file: path, line: number), reason: reason, bytes: Array(key.utf8))))
    }

    /// Decodes the whole `.npz` (it is a zip: read whole, at most `Stroke3NPZ.maximumFileSize`).
    private func decodeStroke3() {
        stroke3 = []
        let name = path.split(separator: "/").last.map(String.init) ?? path
        do {
            var position = 0
            for (split, arrays) in try Stroke3NPZ.read(path: path) {
                for (index, array) in arrays.enumerated() {
                    position += 1
                    let key = "\(name)#\(split.rawValue)#\(index)"
                    guard let drawing = Stroke3.drawing(of: array) else {
                        stroke3!.append((position, nil, key, "\(key): not a non-empty (n, 3) stroke-3 array of finite values"))
                        continue
                    }
                    // The values come from the file: held to the same bounds as NDJSON coordinates,
                    // so no later conversion (to int16, to pixels) meets 1e300.
                    do throws(DrawingLimitError) {
                        try DrawingLimits.checkInput(drawing)
                    } catch {
                        stroke3!.append((position, nil, key, "\(key): \(error.reason)"))
                        continue
                    }
                    let record = SketchRecord(word: word, countryCode: "", timestamp: "", recognized: true, keyID: key, drawing: drawing)
                    stroke3!.append((position, record, key, ""))
                }
            }
        } catch let error as FormatError {
            stroke3Failure = error.description
        } catch {
            stroke3Failure = "cannot read \(path): \(error)"
        }
        (stroke3Bytes, stroke3Digest) = Self.measure(path: path, hashing: hashing)
    }

    /// Stored size and (when hashing) SHA-256 of the file at `path`.
    private static func measure(path: String, hashing: Bool) -> (Int, String?) {
        guard let source = try? ByteSource(path: path, hashing: hashing) else { return (0, nil) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while let count = try? source.read(into: buffer), count > 0 {}
        return (source.consumedInputBytes, source.digest())
    }
}
