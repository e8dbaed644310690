import SketchCore
import SketchIO

/// Reads one chunk of a Kaggle CSV input (`KaggleCSV`) as batches of NDJSON lines: the chunk's
/// lines come from `InputChunkReader` (whole files, gzip, or newline-aligned byte ranges of a
/// plain file), and each row is turned into its NDJSON line on the reading thread, so workers,
/// quarantine and tally are those of every format. The header is the file's first line: a chunk
/// that starts the file reads it there (it is not a record); a later byte-range chunk reads it
/// from the start of the file, so every chunk knows its layout. A row that cannot be turned into a
/// record is a `failed` entry with the reason and its CSV bytes; a file whose first line is no
/// Kaggle header, or a test file (`key_id,countrycode,drawing`) without a word, is one source
/// error and nothing of it is read.
package final class CSVLineBatches: LineBatchReading {
    private let lines: InputChunkReader
    private let path: String
    private let word: String
    private var layout: KaggleCSV.Layout?
    private var readsHeader: Bool
    private var failure: String?
    private var finished = false
    private var line: [UInt8] = []

    /// Reads `range` of `path` (nil: the whole input); test-layout rows get `word` (empty: none
    /// given). `recordLimit` counts rows, not the header.
    package init(
        path: String, range: Range<Int>?, chunk: Int, hashing: Bool, word: String,
        maximumLineLength: Int = DrawingLimits.maximumLineBytes, batchLines: Int = 1024, recordLimit: Int? = nil
    ) {
        self.path = path
        self.word = word
        let startsFile = (range?.lowerBound ?? 0) == 0
        readsHeader = startsFile
        lines = InputChunkReader(
            path: path, range: range, chunk: chunk, hashing: hashing, maximumLineLength: maximumLineLength,
            batchLines: batchLines, recordLimit: recordLimit.map { startsFile ? $0 + 1 : $0 })
        if !readsHeader { setLayout(headerOf: Self.firstLine(of: path)) }
    }

    package var consumedInputBytes: Int { lines.consumedInputBytes }

    package func digest() -> String? { lines.digest() }

    package func nextBatch() -> RawLineBatch? {
        if failure != nil { return refusal(chunk: lines.chunkIndex) }
        guard !finished, let batch = lines.nextBatch() else { return nil }
        var converted = RawLineBatch(chunk: batch.chunk)
        for (index, entry) in batch.entries.enumerated() {
            if readsHeader, case .line = entry.kind {
                readsHeader = false
                batch.withLine(index) { setLayout(headerOf: Array($0)) }
                if failure != nil { return refusal(chunk: batch.chunk) }
                continue
            }
            let start = converted.bytes.count
            var kind = entry.kind
            batch.withLine(index) { row in
                guard case .line = entry.kind, let layout else {
                    converted.bytes.append(contentsOf: row)
                    return
                }
                line.removeAll(keepingCapacity: true)
                do throws(FormatError) {
                    try KaggleCSV.appendNDJSON(ofRow: row, layout: layout, word: word, to: &line)
                    converted.bytes.append(contentsOf: line)
                } catch {
                    kind = .failed(error.reason)
                    converted.bytes.append(contentsOf: row)
                }
            }
            converted.entries.append(.init(lineInChunk: entry.lineInChunk, kind: kind, range: start..<converted.bytes.count))
        }
        return converted.entries.isEmpty ? nextBatch() : converted
    }

    /// The one source error of a refused file; the rest of the chunk is read unparsed, so its
    /// size and checksum are those of the whole chunk.
    private func refusal(chunk: Int) -> RawLineBatch {
        let reason = failure ?? ""
        failure = nil
        finished = true
        while lines.nextBatch() != nil {}
        var batch = RawLineBatch(chunk: chunk)
        batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
        return batch
    }

    /// Takes `header` as the file's first line: its layout, or the failure that stops the file.
    private func setLayout(headerOf header: [UInt8]?) {
        layout = header.flatMap { KaggleCSV.layout(ofHeader: $0) }
        if layout == nil {
            failure =
                "\(path): the first line is not a Kaggle CSV header (\(KaggleCSV.Layout.train.header) or \(KaggleCSV.Layout.test.header))"
        } else if layout == .test && word.isEmpty {
            failure = "\(path) is a Kaggle test file (\(KaggleCSV.Layout.test.header)), which has no word: pass --word WORD"
        }
    }

    /// The first line of the plain file at `path` (at most `KaggleCSV.maximumHeaderLength` bytes
    /// are looked at), or nil when it cannot be read.
    private static func firstLine(of path: String) -> [UInt8]? {
        guard let source = try? ByteSource(path: path, range: 0..<(KaggleCSV.maximumHeaderLength + 4)) else { return nil }
        var buffer = [UInt8](repeating: 0, count: KaggleCSV.maximumHeaderLength + 4)
        guard let count = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) else { return nil }
        let head = buffer[..<count]
        return Array(head[..<(head.firstIndex(of: 0x0A) ?? head.endIndex)])
    }
}
