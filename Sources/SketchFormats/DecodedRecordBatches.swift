import SketchCore
import SketchIO

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

/// Reads one Google `.bin` (plain or gzip), sketch-rnn stroke-3 `.npz` or SVG input as batches of
/// NDJSON lines: each record is decoded on the reading thread (`GoogleBinaryCursor`,
/// `Stroke3NPZ`, `SVGSketch`) and written as one line in Google's layout (an SVG's raw strokes
/// with their `t` arrays)
/// (`SimplifiedNDJSONWriter.encode`), so the workers parse and process it like any NDJSON line and
/// every stage, the quarantine and the tally stay the same for every format. An entry's line
/// number is the record's number in the file (stroke-3: its position, the splits in the zip's
/// entry order). A record the decoder rejects is a `failed` entry carrying its quarantine form (a `.bin`
/// record: its byte offset, reason and hex bytes); a stroke-3 file that cannot be decoded, or an
/// input that cannot be opened, is one source error. Stroke-3 records get the key
/// `<file name>#<split>#<index>`, an empty country and timestamp and `recognized` true, and a
/// float64 record its exact deltas (`SketchRecord.stroke3Deltas`) when its positions alone would
/// not give them back. An SVG file is one record (`SVGSketch.record`), rejected with the reason
/// (its quarantine form is the file's path) when the file is refused.
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
    /// The items of a file decoded whole (stroke-3, SVG), with their numbers in the file.
    private var whole: [(number: Int, item: Item)]?
    private var wholeNext = 0
    private var wholeFailure: String?
    private var wholeBytes = 0
    private var wholeDigest: String?
    private var line: [UInt8] = []

    /// Reads `path` as `format` (`.bin`, `.stroke3` or `.svg`); its records get `word`.
    package init(
        path: String, format: DrawingFileFormat, word: String, chunk: Int, hashing: Bool,
        batchLines: Int = 1024, recordLimit: Int? = nil
    ) {
        precondition(format == .bin || format == .stroke3 || format == .svg, "NDJSON and CSV are read line by line")
        self.path = path
        self.format = format
        self.word = word
        self.chunk = chunk
        self.hashing = hashing
        self.batchLines = max(1, batchLines)
        self.recordLimit = recordLimit
        if format == .bin { binary = GoogleBinaryCursor(path: path, word: word, hashing: hashing) }
    }

    package var consumedInputBytes: Int { binary?.consumedInputBytes ?? wholeBytes }

    package func digest() -> String? { binary?.digest() ?? wholeDigest }

    package func nextBatch() -> RawLineBatch? {
        var batch = RawLineBatch(chunk: chunk)
        if format != .bin && whole == nil { decodeWhole() }
        if let reason = wholeFailure {
            wholeFailure = nil
            batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
            return batch
        }
        while batch.entries.count < batchLines, batch.bytes.count < InputChunkReader.batchByteTarget,
            records < recordLimit ?? Int.max, let (number, item) = nextItem()
        {
            let start = batch.bytes.count
            switch item {
            case .record(let record):
                records += 1
                line.removeAll(keepingCapacity: true)
                SimplifiedNDJSONWriter.encode(record, into: &line)
                batch.bytes += line
                batch.entries.append(.init(lineInChunk: number, kind: .line, range: start..<batch.bytes.count))
            case .unopened(let reason):
                batch.entries.append(.init(lineInChunk: 0, kind: .unopened(reason: reason), range: start..<start))
            case let .sourceError(byteOffset, reason):
                batch.entries.append(
                    .init(lineInChunk: 0, kind: .sourceError(byteOffset: byteOffset, reason: reason), range: start..<start))
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
        case unopened(reason: String)
        case sourceError(byteOffset: Int, reason: String)
    }

    /// The next record or rejection with its number in the file.
    private func nextItem() -> (Int, Item)? {
        if let binary {
            switch binary.next() {
            case let .record(record, number)?: return (number, .record(record))
            case let .rejected(line)?: return (line.location.line, .rejected(line))
            case let .unopened(reason)?: return (0, .unopened(reason: reason))
            case let .sourceError(byteOffset, reason)?: return (0, .sourceError(byteOffset: byteOffset, reason: reason))
            case nil: return nil
            }
        }
        guard let whole, wholeNext < whole.count else { return nil }
        wholeNext += 1
        return whole[wholeNext - 1]
    }

    /// Decodes the whole file: a `.npz` (a zip: read whole, at most `Stroke3NPZ.maximumFileSize`)
    /// or an SVG (at most `SVGSketch.maximumFileBytes`).
    private func decodeWhole() {
        whole = []
        do {
            if format == .svg {
                whole = [(1, try svgItem())]
            } else {
                whole = try stroke3Items()
            }
        } catch let error as FormatError {
            wholeFailure = error.description
        } catch {
            wholeFailure = "cannot read \(path): \(error)"
        }
        (wholeBytes, wholeDigest) = Self.measure(path: path, hashing: hashing)
    }

    /// The SVG file's record, or its rejection when the file is refused (not when it cannot be read).
    private func svgItem() throws(FormatError) -> Item {
        let result: Result<SketchRecord, FormatError>
        do { result = .success(try SVGSketch.record(path: path, word: word.isEmpty ? nil : word)) } catch { result = .failure(error) }
        switch result {
        case .success(let record):
            return .record(record)
        case .failure(let error) where error.kind == .record:
            return .rejected(RejectedLine(location: SourceLocation(file: path, line: 1), reason: error.reason, bytes: Array(path.utf8)))
        case .failure(let error):
            throw error
        }
    }

    /// The records of the stroke-3 file, the splits in the zip's entry order (`Stroke3NPZ.read`).
    private func stroke3Items() throws -> [(number: Int, item: Item)] {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var items: [(number: Int, item: Item)] = []
        for (split, arrays) in try Stroke3NPZ.read(path: path) {
            for (index, array) in arrays.enumerated() {
                let number = items.count + 1
                let key = "\(name)#\(split.rawValue)#\(index)"
                guard let drawing = Stroke3.drawing(of: array) else {
                    let reason =
                        "\(key): coordinate out of range or not a stroke-3 array: a drawing is a non-empty (n, 3) array of finite values whose positions stay within ±\(DrawingLimits.maximumCoordinateMagnitude)"
                    items.append(
                        (
                            number,
                            .rejected(
                                RejectedLine(location: SourceLocation(file: path, line: number), reason: reason, bytes: Array(key.utf8)))
                        ))
                    continue
                }
                // The values come from the file: held to the same bounds as NDJSON coordinates,
                // so no later conversion (to int16, to pixels) meets 1e300.
                do throws(DrawingLimitError) {
                    try DrawingLimits.checkInput(drawing)
                } catch {
                    items.append(
                        (
                            number,
                            .rejected(
                                RejectedLine(
                                    location: SourceLocation(file: path, line: number),
                                    reason: "\(key): \(error.reason)", bytes: Array(key.utf8)))
                        ))
                    continue
                }
                var record = SketchRecord(word: word, countryCode: "", timestamp: "", recognized: true, keyID: key, drawing: drawing)
                record.stroke3Deltas = Stroke3.exactDeltas(of: array, drawing: drawing)
                items.append((number, .record(record)))
            }
        }
        return items
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
