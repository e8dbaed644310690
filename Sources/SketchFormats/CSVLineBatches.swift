import SketchCore
import SketchIO

/// The reading side of Kaggle CSV (`KaggleCSVInputFormat`): one chunk's rows as batches of lines,
/// undecoded: the chunk's lines come from `InputChunkReader` (whole files, gzip, or
/// newline-aligned byte ranges of a plain file), and each batch carries the file's layout
/// (`RawLineBatch.csvLayout`) for the workers that decode the rows. The header is the file's first line: a chunk
/// that starts the file reads it there (it is not a record); a later byte-range chunk reads it
/// from the start of the file, so every chunk knows its layout. A file whose first line is no
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
        guard !finished, var batch = lines.nextBatch() else { return nil }
        if readsHeader, let first = batch.entries.firstIndex(where: { if case .line = $0.kind { return true } else { return false } }) {
            readsHeader = false
            batch.withLine(first) { setLayout(headerOf: Array($0)) }
            if failure != nil { return refusal(chunk: batch.chunk) }
            batch.entries.remove(at: first)
        }
        batch.csvLayout = layout
        return batch.entries.isEmpty ? nextBatch() : batch
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
