import SketchCore

/// Kaggle's Quick, Draw! competition CSV (`KaggleCSV`; plain or gzip): the reading thread cuts
/// lines (`CSVLineBatches`, which reads the header and refuses a file without one); a worker
/// splits each row into its fields and parses the drawing field with the NDJSON parser's drawing
/// reader (`QuickDrawLineParser.parseDrawing`), so a row's record, and each reason it is refused
/// for, is what its NDJSON line (`KaggleCSV.appendNDJSON`, also its quarantine form) would give.
/// Each record says whether it is raw (`SketchRecord.kind`); test rows get `--word`.
package enum KaggleCSVInputFormat: InputFormatPlugin {
    package static let format = DrawingFileFormat.csv
    package static let fileSuffixes = [".csv", ".csv.gz"]
    package static let cutsByteRanges = true
    package static let drawings = DrawingsDeclaration.perRecord

    /// The first line is one of Kaggle's two headers (`KaggleCSV.Layout`).
    package static func detects(_ bytes: [UInt8]) -> Bool { KaggleCSV.layout(ofHeader: bytes.prefix { $0 != 0x0A }) != nil }

    /// Decided once `prefix` holds the first line's end, or more of it than a header is looked at,
    /// or a start of it that no header line (with a byte order mark or `\r`) starts with.
    package static func decides(prefix: [UInt8]) -> Bool? {
        if prefix.contains(0x0A) || prefix.count > KaggleCSV.maximumHeaderLength + 4 { return detects(prefix) }
        return KaggleCSV.mayStartHeader(prefix) ? nil : false
    }

    package static func word(ofFile file: String, given: String?) -> String { given ?? "" }

    package static func batchReader(_ request: BatchReaderRequest) -> any LineBatchReading {
        CSVLineBatches(
            path: request.path, range: request.range, chunk: request.chunk, hashing: request.hashing, word: request.word,
            maximumLineLength: request.maximumLineLength, batchLines: request.batchLines, recordLimit: request.recordLimit)
    }

    /// A row that cannot be split into the layout's fields is rejected with its CSV bytes; a
    /// drawing or name the record parser refuses, with the row's NDJSON line, as that line would be.
    /// The drawing's bytes are read once, by the parser (``acceptedRow(_:layout:in:with:)``); a row
    /// it does not accept is read again with every check (``checkedRow(_:layout:in:with:)``) for its reason.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, in batch: RawLineBatch, with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        guard let layout = batch.csvLayout else { return .rejected(reason: "no Kaggle CSV header read", bytes: nil) }
        if let decoding = acceptedRow(bytes, layout: layout, in: batch, with: &scratch) { return decoding }
        return checkedRow(bytes, layout: layout, in: batch, with: &scratch)
    }

    /// The decoding of a row whose fields split with the drawing field read by the parser
    /// (`KaggleCSV.row(_:layout:word:readingDrawing:)`: read whole, stepping over no carriage
    /// return or newline, with only blanks and tabs before the closing quote): what
    /// ``checkedRow(_:layout:in:with:)`` gives such a row, without a pass over the drawing to find
    /// its quote or to check its bytes; nil for any other row.
    private static func acceptedRow(
        _ bytes: UnsafeBufferPointer<UInt8>, layout: KaggleCSV.Layout, in batch: RawLineBatch,
        with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding? {
        var parsed: (drawing: Drawing, kind: DrawingKind)?
        let row = try? KaggleCSV.row(bytes, layout: layout, word: batch.word) { rest in
            guard
                let (drawing, kind, end, skippedLineBreak) = try? scratch.parser.parseDrawing(
                    rest, columnOffset: 0, flat: scratch.flatPoints, strokes: &scratch.strokes),
                !skippedLineBreak
            else { return nil }
            parsed = (drawing, kind)
            return end
        }
        guard let row, let parsed else { return nil }
        return record(
            of: row, drawing: parsed.drawing, kind: parsed.kind, line: RecordLine(csvRow: bytes, layout: layout, word: batch.word))
    }

    /// The decoding of any row, each check made in turn (the reason of the first that fails).
    private static func checkedRow(
        _ bytes: UnsafeBufferPointer<UInt8>, layout: KaggleCSV.Layout, in batch: RawLineBatch,
        with scratch: inout RecordDecodingScratch
    ) -> PluginDecoding {
        let row: KaggleCSV.Row
        do throws(FormatError) { row = try KaggleCSV.row(bytes, layout: layout, word: batch.word) } catch {
            return .rejected(reason: error.reason, bytes: nil)
        }
        let line = RecordLine(csvRow: bytes, layout: layout, word: batch.word)
        let drawing: Drawing
        let kind: DrawingKind
        do throws(FormatError) {
            (drawing, kind, _, _) = try scratch.parser.parseDrawing(
                row.drawing, columnOffset: 0, flat: scratch.flatPoints, strokes: &scratch.strokes)
        } catch {
            // Columns of the drawing's errors count from the start of the row's NDJSON line: read
            // again from there for the reason (only a refused row pays for it).
            scratch.bytes.removeAll(keepingCapacity: true)
            KaggleCSV.appendNDJSONKeys(of: row, to: &scratch.bytes)
            var reason = error.reason
            do throws(FormatError) {
                _ = try scratch.parser.parseDrawing(row.drawing, columnOffset: scratch.bytes.count, flat: false, strokes: &scratch.strokes)
            } catch {
                reason = error.reason
            }
            return .rejected(reason: reason, bytes: line.bytes)
        }
        return record(of: row, drawing: drawing, kind: kind, line: line)
    }

    /// The record of `row` with its parsed `drawing`, or its rejection for a name `DataName` refuses.
    private static func record(of row: KaggleCSV.Row, drawing: Drawing, kind: DrawingKind, line: RecordLine) -> PluginDecoding {
        let record = SketchRecord(
            word: row.word, countryCode: row.countryCode, timestamp: row.timestamp, recognized: row.recognized, keyID: row.keyID,
            drawing: drawing, kind: kind)
        if let problem = DataName.recordProblem(record) { return .rejected(reason: problem, bytes: line.bytes) }
        return .record(record, line)
    }
}
