import SketchFormats

/// How one example is stored in a dataset's files, less its label: made once per example on the
/// map side (PNG compression and `tf.train.Example` serialization included), so the reduce side
/// only copies these bytes and adds the label (``LabelledRecord``).
///
/// - NPY: the features row (the values' raw little-endian bytes); the label goes to `.y.npy`.
/// - TFRecord: the `Features` map entries of every feature but the label
///   (``TFExample/serializedFeatureEntries()``); the reduce side appends the label's entry.
/// - WebDataset: `u32 length` + the `.npy` or `.png` member's bytes, then the `.json` member's
///   bytes; the reduce side adds the `.cls` member and the tar framing.
/// - sketch-rnn `.npz`: the `(n, 3)` stroke-3 array's bytes in the `.npz` entry (its pickle tail,
///   or its values in the flat layout), deflated on their own (``Stroke3Fragment/body(rows:isFloat64:rawValues:layout:encoder:)``:
///   size, CRC-32, deflated bytes); the reduce side adds the bytes that depend on its place and
///   joins the fragments (`Stroke3NPZAssembler`).
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

    /// The dataset format an example is encoded for.
    package enum Encoding: Sendable, Equatable {
        case npy
        case tfrecord(TFRecordFeatureNames, imagesAsPNG: Bool)
        case webdataset(imagesAsPNG: Bool)
        case stroke3(Stroke3Layout)
    }

    /// The body of an example with `payload` in `encoding`; stroke-3 bodies are deflated by
    /// `fragments` (a worker's reused encoder; one made for the call when nil); PNG images are
    /// written with `pngFilter` (`.none` for rasters rendered from strokes, `.paeth` for resampled
    /// images). Throws
    /// `DatasetError` for a payload the encoding cannot hold (stroke-3 values that are not int16)
    /// and `FormatError` when PNG encoding or deflating fails.
    package static func make(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts,
        encoding: Encoding, fragments: DeflateFragmentEncoder? = nil, pngFilter: PNGEncoder.RowFilter = .none
    ) throws -> ExampleBody {
        switch encoding {
        case .npy:
            return ExampleBody(element: element(of: payload), shape: payload.shape, bytes: rawBytes(payload))
        case let .tfrecord(names, imagesAsPNG):
            if imagesAsPNG, let png = try PNGEncoder.encode(raster: payload, filter: pngFilter) {
                let shape = payload.shape
                var image = TFExample.pngImage(png: png, height: shape[0], width: shape[1], label: 0)
                image.features["image/class/label"] = nil
                image.features["key_id"] = .bytes([Array(keyID.utf8)])
                return ExampleBody(element: .uint8, shape: shape, flags: pngImage, bytes: image.serializedFeatureEntries())
            }
            let values: TFExample.Feature
            switch payload {
            case let .float32(v, _): values = .floats(v)
            case let .float64(v, _): values = .floats(v.map(Float.init))
            case let .uint8(v, _): values = .bytes([v])
            }
            let features = TFExample(features: [
                names.values: values,
                names.shape: .int64s(payload.shape.map(Int64.init)),
                "key_id": .bytes([Array(keyID.utf8)]),
            ])
            return ExampleBody(element: element(of: payload), shape: payload.shape, bytes: features.serializedFeatureEntries())
        case let .webdataset(imagesAsPNG):
            let png = imagesAsPNG ? try PNGEncoder.encode(raster: payload, filter: pngFilter) : nil
            let first = png ?? npy(payload)
            var bytes: [UInt8] = []
            bytes.appendLE(UInt32(first.count))
            bytes += first
            bytes += WebDatasetShard.json(word: word, keyID: keyID, facts: facts)
            return ExampleBody(element: element(of: payload), shape: payload.shape, flags: png == nil ? 0 : pngImage, bytes: bytes)
        case let .stroke3(layout):
            let raw: [UInt8]
            let shape: [Int]
            let isFloat64: Bool
            switch payload {
            case let .float32(values, payloadShape) where payloadShape.count == 2 && payloadShape[1] == 3:
                var bytes: [UInt8] = []
                bytes.reserveCapacity(2 * values.count)
                for value in values {
                    guard let integer = Int16(exactly: value) else {
                        throw DatasetError("\(keyID): stroke-3 value \(value) is not an int16")
                    }
                    bytes.appendLE(integer)
                }
                (raw, shape, isFloat64) = (bytes, payloadShape, false)
            case let .float64(_, payloadShape) where payloadShape.count == 2 && payloadShape[1] == 3:
                (raw, shape, isFloat64) = (rawBytes(payload), payloadShape, true)
            default:
                throw DatasetError("\(keyID) has no (n, 3) stroke-3 payload")
            }
            let body = try Stroke3Fragment.body(
                rows: shape[0], isFloat64: isFloat64, rawValues: raw, layout: layout, encoder: try fragments ?? DeflateFragmentEncoder())
            return ExampleBody(element: isFloat64 ? .float64 : .int16, shape: shape, bytes: body)
        }
    }

    private static func element(of payload: TensorPayload) -> BodyElement {
        switch payload {
        case .float32: return .float32
        case .float64: return .float64
        case .uint8: return .uint8
        }
    }

    private static func rawBytes(_ payload: TensorPayload) -> [UInt8] {
        switch payload {
        case let .float32(values, _): return values.withUnsafeBytes { Array($0) }
        case let .float64(values, _): return values.withUnsafeBytes { Array($0) }
        case let .uint8(values, _): return values
        }
    }

    static func npy(_ payload: TensorPayload) -> [UInt8] {
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
        switch format {
        case .npy: return .npy
        case .tfrecord: return .tfrecord(tfrecordFeatures, imagesAsPNG: storesImagesAsPNG)
        case .webdataset: return .webdataset(imagesAsPNG: storesImagesAsPNG)
        }
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
