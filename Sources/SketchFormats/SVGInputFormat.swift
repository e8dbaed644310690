import SketchCore
import SketchIO

/// An SVG vector sketch, one drawing per file (`SVGSketch`): the reading thread reads the file's
/// bytes (at most `SVGSketch.maximumFileBytes`; a file that cannot be read is one source error);
/// a worker turns them into the record (cairo's curve flattening included). Its drawings are
/// raw. The word is the parent directory's name unless `--word` names one; the key_id is
/// `<parent directory>/<file name>`. A file the decoder refuses is rejected with its path as the
/// quarantined bytes.
package enum SVGInputFormat: InputFormatPlugin {
    package static let format = DrawingFileFormat.svg
    package static let fileSuffixes: [String] = []
    package static let recursiveFileSuffixes = [".svg"]
    package static let drawings = DrawingsDeclaration.alwaysRaw

    /// The first non-blank byte (after a byte order mark) is `<` and the bytes hold `<svg`.
    package static func detects(_ bytes: [UInt8]) -> Bool { answer(bytes, isWholeSniff: true) ?? false }

    /// Decided by the first non-blank byte when it is not `<`, or by a `<svg` in `prefix`.
    package static func decides(prefix: [UInt8]) -> Bool? { answer(prefix, isWholeSniff: false) }

    /// The rule of ``detects(_:)`` on `bytes`; when they are not the whole sniff, nil where the
    /// answer depends on the bytes after them.
    private static func answer(_ bytes: [UInt8], isWholeSniff: Bool) -> Bool? {
        if !isWholeSniff && bytes.count < 3 { return nil }  // a byte order mark is three bytes
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            return isWholeSniff ? false : nil
        }
        guard first == UInt8(ascii: "<") else { return false }
        let tag = Array("<svg".utf8)
        return body.indices.contains { body[$0...].starts(with: tag) } ? true : isWholeSniff ? false : nil
    }

    package static func word(ofFile file: String, given: String?) -> String {
        let parts = file.split(separator: "/")
        return given ?? (parts.count >= 2 ? String(parts[parts.count - 2]) : ".")
    }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading { FileBytes(request) }

    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        let path = batch.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let parent = parts.count >= 2 ? parts[parts.count - 2] : "."
        let drawing: Drawing
        do throws(FormatError) { drawing = try SVGSketch.drawing(of: Array(bytes)) } catch {
            guard error.kind == .record else { return .sourceError(reason: error.description) }
            return .rejected(reason: error.reason, bytes: Array(path.utf8))
        }
        let record = SketchRecord(
            word: batch.word.isEmpty ? parent : batch.word, countryCode: "", timestamp: "", recognized: true,
            keyID: "\(parent)/\(parts.last ?? path)", drawing: drawing)
        if let problem = DataName.recordProblem(record) { return .rejected(reason: problem, bytes: RecordLine(encoding: record).bytes) }
        return .record(scratch.deliver(record), RecordLine(encoding: record))
    }

    /// The reading side: the file's bytes as one entry.
    private final class FileBytes: LineBatchReading {
        private let path: String
        private let chunk: Int
        private let hashing: Bool
        private let recordLimit: Int?
        private var done = false
        private var bytes = 0
        private var sha256: String?

        init(_ request: BatchReaderRequest) {
            path = request.path
            chunk = request.chunk
            hashing = request.hashing
            recordLimit = request.recordLimit
        }

        var consumedInputBytes: Int { bytes }

        func digest() -> String? { sha256 }

        func nextBatch() -> RawLineBatch? {
            guard !done else { return nil }
            done = true
            var batch = RawLineBatch(chunk: chunk)
            do {
                batch.bytes = try InputFile.readAll(path, maximumBytes: SVGSketch.maximumFileBytes)
                if recordLimit ?? 1 > 0 { batch.entries.append(.init(lineInChunk: 1, kind: .line, range: 0..<batch.bytes.count)) }
            } catch {
                batch.bytes = []
                let reason = FormatError(.input, "cannot read \(path): \(error.reason)").description
                batch.entries.append(.init(lineInChunk: 0, kind: .sourceError(byteOffset: 0, reason: reason), range: 0..<0))
            }
            (bytes, sha256) = WholeFile.measure(path: path, hashing: hashing)
            return batch.entries.isEmpty ? nil : batch
        }
    }
}
