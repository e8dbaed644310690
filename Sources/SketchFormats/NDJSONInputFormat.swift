import SketchCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Quick, Draw! NDJSON (raw or simplified, plain or gzip): the reading thread cuts lines
/// (`InputChunkReader`); each line is parsed on a worker by `QuickDrawLineParser`.
package enum NDJSONInputFormat: InputFormatPlugin {
    package static let format = DrawingFileFormat.ndjson
    package static let fileSuffixes = [".ndjson", ".ndjson.gz"]
    package static let cutsByteRanges = true
    package static let drawings = DrawingsDeclaration.perRecord

    /// The first non-blank byte is `{` and one of the first 8 non-blank lines parses as a
    /// Quick, Draw! record (or the first line is longer than the sniffed bytes).
    package static func detects(_ bytes: [UInt8]) -> Bool { answer(bytes, isWholeSniff: true) ?? false }

    /// Decided by the first non-blank byte, or by the complete lines of `prefix`.
    package static func decides(prefix: [UInt8]) -> Bool? { answer(prefix, isWholeSniff: false) }

    /// The rule of ``detects(_:)`` on `bytes`; when they are not the whole sniff, nil where the
    /// answer depends on the bytes after them.
    private static func answer(_ bytes: [UInt8], isWholeSniff: Bool) -> Bool? {
        guard let first = bytes.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            return isWholeSniff ? false : nil
        }
        guard bytes[first] == 0x7B else { return false }
        return looksLikeNDJSON(bytes[first...], isWholeSniff: isWholeSniff)
    }

    /// Records carry their own word.
    package static func word(ofFile file: String, given: String?) -> String { "" }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading {
        InputChunkReader(
            path: request.path, range: request.range, chunk: request.chunk, hashing: request.hashing,
            maximumLineLength: request.maximumLineLength, batchLines: request.batchLines, recordLimit: request.recordLimit)
    }

    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        do throws(FormatError) {
            let record =
                scratch.flatPoints ? try scratch.parser.parse(bytes, strokesInto: &scratch.strokes) : try scratch.parser.parse(bytes)
            return .record(record, RecordLine(text: bytes, stroke3Deltas: scratch.parser.stroke3Deltas))
        } catch {
            return .rejected(reason: error.reason, bytes: nil)
        }
    }

    private static func looksLikeNDJSON(_ bytes: ArraySlice<UInt8>, isWholeSniff: Bool) -> Bool? {
        var parser = QuickDrawLineParser(keepsTimestamps: false)
        var strokes = FlatStrokes()
        var checked = 0
        var start = bytes.startIndex
        while start < bytes.endIndex && checked < 8 {
            guard let newline = newlineIndex(in: bytes, from: start) else {
                guard isWholeSniff else { return nil }
                // The last sniffed line: judge it only if the input ended there.
                return checked == 0 && bytes.count >= DrawingFileFormat.sniffLength
                    || bytes.count < DrawingFileFormat.sniffLength && parses(&parser, &strokes, bytes[start...])
            }
            let line = bytes[start..<newline]
            start = newline + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            checked += 1
            if parses(&parser, &strokes, line) { return true }
        }
        return checked < 8 && !isWholeSniff ? nil : false
    }

    /// The index of the first `\n` of `bytes` from `start` on, found by `memchr` (a byte-by-byte
    /// `firstIndex(of:)` was a third of detecting a raw file).
    private static func newlineIndex(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        bytes[start...].withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, 0x0A, buffer.count) else { return nil }
            return start + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }

    /// Whether `line` parses as a record: the reader's flat parse (the same checks and errors as
    /// a parse into a `Drawing`, without arrays per stroke), its points left in `strokes`.
    private static func parses(
        _ parser: inout QuickDrawLineParser, _ strokes: inout FlatStrokes, _ line: ArraySlice<UInt8>
    ) -> Bool {
        var trimmed = line
        if trimmed.last == 0x0D { trimmed = trimmed.dropLast() }
        return trimmed.withUnsafeBufferPointer { (try? parser.parse($0, strokesInto: &strokes)) != nil }
    }
}
