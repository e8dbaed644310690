import SketchFormats

/// `output.format: tfrecord`: per shard `{split}-{i:05d}-of-{n:05d}.tfrecord` of
/// `tf.train.Example`s (feature names ``TFRecordFeatureNames``; uint8 rasters as TensorFlow's
/// image features, `TFExample.pngImage`). An example's body is its `Features` map entries but the
/// label's (``TFExample/serializedFeatureEntries()``); the reduce side appends the label entry and
/// the record framing (``LabelledRecord``).
package enum TFRecordOutput: OutputFormatEntry {
    package static let name = "tfrecord"
    package static let title = "TFRecord"
    package static let shardSuffixes = [DatasetLayout.tfrecordSuffix]

    /// `.tfrecord` shards, or the tutorial naming's `training.tfrecord-NNNNN-of-NNNNN`.
    package static func holds(_ file: String) -> Bool {
        file.hasSuffix(DatasetLayout.tfrecordSuffix) || file.contains(DatasetLayout.tfrecordSuffix + "-")
    }

    package static func refusal(of kind: ExampleKind) -> String? { NPYOutput.refusal(of: kind) }

    package static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody {
        if encoding.imagesAsPNG, let png = try PNGEncoder.encode(raster: payload, filter: pngFilter) {
            let shape = payload.shape
            var image = TFExample.pngImage(png: png, height: shape[0], width: shape[1], label: 0)
            image.features["image/class/label"] = nil
            image.features["key_id"] = .bytes([Array(keyID.utf8)])
            return ExampleBody(element: .uint8, shape: shape, flags: ExampleBody.pngImage, bytes: image.serializedFeatureEntries())
        }
        let values: TFExample.Feature
        switch payload {
        case let .float32(v, _): values = .floats(v)
        case let .float64(v, _): values = .floats(v.map(Float.init))
        case let .uint8(v, _): values = .bytes([v])
        }
        let names = encoding.tfrecordFeatures
        let features = TFExample(features: [
            names.values: values,
            names.shape: .int64s(payload.shape.map(Int64.init)),
            "key_id": .bytes([Array(keyID.utf8)]),
        ])
        return ExampleBody(element: ExampleBody.element(of: payload), shape: payload.shape, bytes: features.serializedFeatureEntries())
    }

    package static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink {
        guard case let .shard(directory, split, examples, fileName) = place else {
            throw DatasetError(.invariant, "internal: TFRecord files are shards")
        }
        return Sink(
            files: ShardFiles(directory: directory, split: split, examples: examples, fileName: fileName, suffixes: shardSuffixes),
            labelFeature: options.tfrecordFeatures.label)
    }

    /// One shard's file.
    private final class Sink: ExampleSink {
        private let files: ShardFiles
        private var labelled: LabelledRecord

        init(files: ShardFiles, labelFeature: String) {
            self.files = files
            labelled = LabelledRecord(labelFeature: labelFeature)
        }

        func append(_ record: RunRecord, label: Int32) throws {
            try files.count(record)
            if files.sinks.isEmpty { try files.open() }
            labelled.appendTFRecord(
                body: record.body, bodyCRC: record.bodyCRC, flags: record.flags, label: label, to: &files.sinks[0].buffer)
            try files.sinks[0].flushIfFull()
        }

        func finish() throws -> SinkResult { try files.finish() }
    }
}
