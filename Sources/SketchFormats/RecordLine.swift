import SketchCore

/// The quarantine form of a decoded record: what is quarantined when a later stage refuses it.
/// An NDJSON record's is its line as read; a record of another format's is the NDJSON line of
/// Google's layout it stands for (`SimplifiedNDJSONWriter.encode`; a CSV row's with its drawing
/// text as written, `KaggleCSV.appendNDJSON`), made only when it is asked for, so records that
/// pass cost nothing. Valid while the decoder's body runs (it may point into the batch).
package struct RecordLine: Sequence {
    fileprivate enum Form {
        case text(UnsafeBufferPointer<UInt8>)
        case record(SketchRecord)
        case flat(SketchRecord, FlatStrokes)
        case csvRow(UnsafeBufferPointer<UInt8>, KaggleCSV.Layout, word: String)
        case binaryBlock(UnsafeBufferPointer<UInt8>, word: String)
    }

    fileprivate let form: Form
    /// A float64 stroke-3 record's exact deltas (`Stroke3.exactDeltas`; an NDJSON line's
    /// `stroke3_deltas`): what its format keeps beside the record, for stroke-3 rows written from
    /// it (`Stroke3.array(of:exactDeltas:)`) and its NDJSON line.
    package let stroke3Deltas: [Double]?

    /// The line `bytes` as read (NDJSON), with the `stroke3_deltas` it held.
    package init(text bytes: UnsafeBufferPointer<UInt8>, stroke3Deltas: [Double]? = nil) {
        form = .text(bytes)
        self.stroke3Deltas = stroke3Deltas
    }

    /// The NDJSON line of `record` (its drawing with the strokes' `t` arrays) and `stroke3Deltas`.
    package init(encoding record: SketchRecord, stroke3Deltas: [Double]? = nil) {
        form = .record(record)
        self.stroke3Deltas = stroke3Deltas
    }

    /// The NDJSON line of `record` with `strokes` as its drawing.
    package init(encoding record: SketchRecord, strokes: FlatStrokes) {
        form = .flat(record, strokes)
        stroke3Deltas = nil
    }

    /// The NDJSON line of the Kaggle CSV `row` of a file in `layout` (`word`: the word of test rows).
    package init(csvRow row: UnsafeBufferPointer<UInt8>, layout: KaggleCSV.Layout, word: String) {
        form = .csvRow(row, layout, word: word)
        stroke3Deltas = nil
    }

    /// The NDJSON line of the Google `.bin` record `block` (one ``GoogleBinaryInputFormat`` decodes)
    /// of a file whose records have `word`.
    package init(binaryBlock block: UnsafeBufferPointer<UInt8>, word: String) {
        form = .binaryBlock(block, word: word)
        stroke3Deltas = nil
    }

    /// The bytes.
    package var bytes: [UInt8] {
        var line: [UInt8] = []
        switch form {
        case .text(let text): return Array(text)
        case .record(let record): SimplifiedNDJSONWriter.encode(record, stroke3Deltas: stroke3Deltas, into: &line)
        case let .flat(record, strokes): SimplifiedNDJSONWriter.encode(record, strokes: strokes, into: &line)
        case let .csvRow(row, layout, word):
            // Only rows that decoded are quarantined this way, so the row converts.
            try? KaggleCSV.appendNDJSON(ofRow: row, layout: layout, word: word, to: &line)
        case let .binaryBlock(block, word):
            SimplifiedNDJSONWriter.encode(GoogleBinaryInputFormat.record(ofBlock: block, word: word), stroke3Deltas: nil, into: &line)
        }
        return line
    }

    package func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
}
