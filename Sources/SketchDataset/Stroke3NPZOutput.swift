import SketchFormats

/// `output.format: npz` (`encode.kind: stroke3`): one sketch-rnn `<word>.npz` per class with
/// `train`, `valid` and `test` object arrays (``Stroke3DatasetWriter``). An example's body is its
/// `(n, 3)` stroke-3 array's bytes in the `.npz` entry (its pickle tail, or its values in the flat
/// layout), deflated on their own (`Stroke3Fragment.body(rows:isFloat64:rawValues:layout:encoder:)`:
/// size, CRC-32, deflated bytes); the reduce side adds the bytes that depend on its place and
/// joins the fragments (`Stroke3NPZAssembler`).
package enum Stroke3NPZOutput: OutputFormatEntry {
    package static let name = "npz"
    package static let title = "sketch-rnn stroke-3 .npz"
    package static let shardSuffixes: [String] = []
    package static let grouping = OutputGrouping.classes
    package static let namesFilesByWord = true
    package static let deflatesBodies = true
    /// The suffix of a class's file.
    static let suffix = ".npz"

    /// The file of the class `word`.
    static func fileName(word: String) -> String { word + suffix }

    package static func holds(_ file: String) -> Bool { file.hasSuffix(suffix) }

    package static func refusal(of kind: ExampleKind) -> String? {
        kind == .stroke3Rows ? nil : "npz holds stroke-3 arrays; set encode.kind: stroke3"
    }

    package static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody {
        let raw: [UInt8]
        let shape: [Int]
        let isFloat64: Bool
        switch payload {
        case let .float32(values, payloadShape) where payloadShape.count == 2 && payloadShape[1] == 3:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(2 * values.count)
            for value in values {
                guard let integer = Int16(exactly: value) else {
                    throw DatasetError(.example, "\(keyID): stroke-3 value \(value) is not an int16")
                }
                bytes.appendLE(integer)
            }
            (raw, shape, isFloat64) = (bytes, payloadShape, false)
        case let .float64(_, payloadShape) where payloadShape.count == 2 && payloadShape[1] == 3:
            (raw, shape, isFloat64) = (ExampleBody.rawBytes(payload), payloadShape, true)
        default:
            throw DatasetError(.example, "\(keyID) has no (n, 3) stroke-3 payload")
        }
        let body = try Stroke3Fragment.body(
            rows: shape[0], isFloat64: isFloat64, rawValues: raw, layout: encoding.stroke3Layout,
            encoder: try fragments ?? DeflateFragmentEncoder())
        return ExampleBody(element: isFloat64 ? .float64 : .int16, shape: shape, bytes: body)
    }

    package static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink {
        guard case let .classes(directory, classes) = place else { throw DatasetError(.invariant, "internal: .npz files are per class") }
        return Sink(writer: try Stroke3DatasetWriter(directory: directory, classes: classes, layout: options.stroke3Layout))
    }

    /// A part's classes.
    private final class Sink: ExampleSink {
        private let writer: Stroke3DatasetWriter

        init(writer: Stroke3DatasetWriter) {
            self.writer = writer
        }

        func append(_ record: RunRecord, label: Int32) throws {
            try writer.add(record, label: Int(label), split: record.splitIndex)
        }

        func finish() throws -> SinkResult {
            let (files, order) = try writer.finish()
            return SinkResult(entries: files, order: order, reused: 0)
        }
    }
}
