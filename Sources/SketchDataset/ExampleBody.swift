import SketchFormats

/// How one example is stored in a dataset's files, less its label: made once per example on the
/// map side by its output format (``OutputFormatEntry/body(payload:keyID:word:facts:encoding:fragments:pngFilter:)``,
/// PNG compression and serialization included), so the reduce side only copies these bytes and
/// adds the label. Each format's type documents its body.
package struct ExampleBody: Sendable, Equatable {
    package var element: BodyElement
    package var shape: [Int]
    package var flags: UInt8 = 0
    package var bytes: [UInt8]

    /// ``flags`` bit: the TFRecord body holds TensorFlow's image features (`image/encoded` PNG…),
    /// so its label is `image/class/label`; the WebDataset body's first member is a `.png`.
    package static let pngImage: UInt8 = 1

    package init(element: BodyElement, shape: [Int], flags: UInt8 = 0, bytes: [UInt8]) {
        (self.element, self.shape, self.flags, self.bytes) = (element, shape, flags, bytes)
    }

    /// The output format an example is encoded for, with the settings its bodies depend on.
    package struct Encoding: Sendable, Equatable {
        package var format: OutputFormat
        /// TFRecord feature names.
        package var tfrecordFeatures = TFRecordFeatureNames()
        /// 2-D uint8 payloads (gray rasters) as PNG images where the format can hold either.
        package var imagesAsPNG = false
        /// The `.npz` layout of stroke-3 bodies.
        package var stroke3Layout = Stroke3Layout.standard

        package init(format: OutputFormat) {
            self.format = format
        }
    }

    /// The body of an example with `payload` in `encoding`'s format; stroke-3 bodies are deflated
    /// by `fragments` (a worker's reused encoder; one made for the call when nil); PNG images are
    /// written with `pngFilter` (`.none` for rasters rendered from strokes, `.paeth` for resampled
    /// images). Throws `DatasetError` for a payload the format cannot hold (stroke-3 values that
    /// are not int16) and `FormatError` when PNG encoding or deflating fails.
    package static func make(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts,
        encoding: Encoding, fragments: DeflateFragmentEncoder? = nil, pngFilter: PNGEncoder.RowFilter = .none
    ) throws -> ExampleBody {
        try encoding.format.entry.body(
            payload: payload, keyID: keyID, word: word, facts: facts, encoding: encoding, fragments: fragments, pngFilter: pngFilter)
    }

    /// The element type of `payload`.
    package static func element(of payload: TensorPayload) -> BodyElement {
        switch payload {
        case .float32: return .float32
        case .float64: return .float64
        case .uint8: return .uint8
        }
    }

    /// The values of `payload` as raw little-endian bytes.
    package static func rawBytes(_ payload: TensorPayload) -> [UInt8] {
        switch payload {
        case let .float32(values, _): return values.withUnsafeBytes { Array($0) }
        case let .float64(values, _): return values.withUnsafeBytes { Array($0) }
        case let .uint8(values, _): return values
        }
    }

    /// `payload` as a `.npy` file.
    package static func npy(_ payload: TensorPayload) -> [UInt8] {
        switch payload {
        case let .float32(values, shape): return NPYWriter.encode(values, dtype: .float32, shape: shape)
        case let .float64(values, shape): return NPYWriter.encode(values, dtype: .float64, shape: shape)
        case let .uint8(values, shape): return NPYWriter.encode(values, dtype: .uint8, shape: shape)
        }
    }
}

extension ShardingOptions {
    /// The encoding of this dataset's examples.
    package var exampleEncoding: ExampleBody.Encoding {
        var encoding = ExampleBody.Encoding(format: format)
        encoding.tfrecordFeatures = tfrecordFeatures
        encoding.imagesAsPNG = storesImagesAsPNG
        encoding.stroke3Layout = stroke3Layout
        return encoding
    }
}

/// The reduce side's O(1) per-example step: an example's body plus its label as the bytes of its
/// format, appended to an output buffer without allocating (after the buffers have grown).
package struct LabelledRecord {
    private var entry: [UInt8] = []
    private var prefix: [UInt8] = []
    private let valuesLabel: [UInt8]
    private let imageLabel = Array("image/class/label".utf8)

    package init(labelFeature: String) {
        valuesLabel = Array(labelFeature.utf8)
    }

    /// Appends the TFRecord of a `tf.train.Example` whose `Features` entries are `body` (CRC-32C
    /// `bodyCRC`) plus the label entry: `u64 length`, its masked CRC, the `Example`, its masked
    /// CRC. The body is copied once and never hashed again (``CRC32C/combine(_:_:lengthB:)``).
    package mutating func appendTFRecord(
        body: UnsafeRawBufferPointer, bodyCRC: UInt32, flags: UInt8, label: Int32,
        to out: inout [UInt8]
    ) {
        entry.removeAll(keepingCapacity: true)
        TFExample.appendInt64Entry(name: flags & ExampleBody.pngImage != 0 ? imageLabel : valuesLabel, value: Int64(label), to: &entry)
        prefix.removeAll(keepingCapacity: true)
        prefix.append(0x0A)  // Example.features = 1, length-delimited
        ProtobufWire.appendVarint(UInt64(body.count + entry.count), to: &prefix)
        let length = UInt64(prefix.count + body.count + entry.count)
        let start = out.count
        out.appendLE(length)
        let lengthCRC = out.withUnsafeBufferPointer { CRC32C.checksum(UnsafeBufferPointer(rebasing: $0[start..<start + 8])) }
        out.appendLE(CRC32C.masked(lengthCRC))
        out += prefix
        out.append(contentsOf: body)
        out += entry
        var crc = CRC32C.checksum(prefix)
        crc = CRC32C.combine(crc, bodyCRC, lengthB: body.count)
        crc = CRC32C.combine(crc, CRC32C.checksum(entry), lengthB: entry.count)
        out.appendLE(CRC32C.masked(crc))
    }
}
