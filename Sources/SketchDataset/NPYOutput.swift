import SketchFormats

/// `output.format: npy`: per shard `{split}-{i:05d}-of-{n:05d}.x.npy` (features, `(N, shape…)`),
/// `.y.npy` (int32 labels, `(N,)`) and `.keys.txt` (one key_id per line, same order). Every
/// example has one element type and shape; an example's body is its values' raw little-endian
/// bytes.
package enum NPYOutput: OutputFormatEntry {
    package static let name = "npy"
    package static let title = "NPY"
    package static let shardSuffixes = DatasetLayout.npyShardSuffixes
    package static let needsOneShape = true

    package static func refusal(of kind: ExampleKind) -> String? {
        kind == .stroke3Rows ? "encode.kind: stroke3 writes sketch-rnn .npz files; set output.format: npz" : nil
    }

    package static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody {
        ExampleBody(element: ExampleBody.element(of: payload), shape: payload.shape, bytes: ExampleBody.rawBytes(payload))
    }

    package static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink {
        guard case let .shard(directory, split, examples, fileName) = place else {
            throw DatasetError(.invariant, "internal: NPY files are shards")
        }
        return Sink(directory: directory, split: split, examples: examples, fileName: fileName)
    }

    /// One shard's three files.
    private final class Sink: ExampleSink {
        private let files: ShardFiles
        private var firstShape: [UInt8] = []
        private var firstElement: BodyElement?

        init(directory: String, split: SplitName, examples: Int, fileName: @escaping (String) -> String) {
            files = ShardFiles(directory: directory, split: split, examples: examples, fileName: fileName, suffixes: shardSuffixes)
        }

        func append(_ record: RunRecord, label: Int32) throws {
            try files.count(record)
            if firstElement == nil {
                firstShape = Array(record.shapeBytes)
                firstElement = record.element
                try files.open()
                files.sinks[0].buffer += NPYFormat.header(dtype: record.element.dtype, shape: [files.examples] + record.shape)
                files.sinks[1].buffer += NPYFormat.header(dtype: .int32, shape: [files.examples])
            }
            let sameShape = firstShape.withUnsafeBytes { RunRecord.compareBytes($0, record.shapeBytes) == 0 }
            guard sameShape, record.element == firstElement else {
                throw DatasetError(
                    .example,
                    "example \(record.keyIDString) is \(record.element.dtype) \(record.shape), "
                        + "but NPY shards need every example to be \(firstElement!.dtype) \(Self.shape(firstShape))")
            }
            files.sinks[0].buffer.append(contentsOf: record.body)
            files.sinks[1].buffer.appendLE(label)
            files.sinks[2].buffer.append(contentsOf: record.keyID)
            files.sinks[2].buffer.append(0x0A)
            for sink in files.sinks { try sink.flushIfFull() }
        }

        func finish() throws -> SinkResult { try files.finish() }

        private static func shape(_ bytes: [UInt8]) -> [Int] {
            bytes.withUnsafeBytes { raw in
                stride(from: 0, to: raw.count, by: 4).map {
                    Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self)))
                }
            }
        }
    }
}
