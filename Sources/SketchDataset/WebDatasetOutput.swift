import SketchFormats

/// `output.format: webdataset`: per shard `{split}-{i:05d}-of-{n:05d}.tar` (``TarFraming``)
/// whose samples are, per example in dataset order, `<key>.npy` (the payload as a `.npy`; uint8
/// rasters as `<key>.png`, a gray or RGB PNG, `PNGEncoder.encode(raster:)`), `<key>.cls` (the
/// label index as decimal text) and `<key>.json` (`word`, the original `key_id`, `countrycode`,
/// `recognized`, `timestamp`), the key being `WebDatasetKey.of(key_id)`.
/// `webdataset.WebDataset(path).decode()` gives each sample's array (or image), label and fields.
///
/// An example's body is `u32 length` + the `.npy` or `.png` member's bytes, then the `.json`
/// member's bytes; the reduce side adds the `.cls` member and the tar framing.
package enum WebDatasetOutput: OutputFormatEntry {
    package static let name = "webdataset"
    package static let title = "WebDataset"
    package static let shardSuffixes = [DatasetLayout.tarSuffix]

    package static func refusal(of kind: ExampleKind) -> String? { NPYOutput.refusal(of: kind) }

    package static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody {
        let png = encoding.imagesAsPNG ? try PNGEncoder.encode(raster: payload, filter: pngFilter) : nil
        let first = png ?? ExampleBody.npy(payload)
        var bytes: [UInt8] = []
        bytes.appendLE(UInt32(first.count))
        bytes += first
        bytes += json(word: word, keyID: keyID, facts: facts)
        return ExampleBody(
            element: ExampleBody.element(of: payload), shape: payload.shape, flags: png == nil ? 0 : ExampleBody.pngImage, bytes: bytes)
    }

    package static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink {
        guard case let .shard(directory, split, examples, fileName) = place else {
            throw DatasetError(.invariant, "internal: WebDataset files are shards")
        }
        return Sink(files: ShardFiles(directory: directory, split: split, examples: examples, fileName: fileName, suffixes: shardSuffixes))
    }

    /// One shard's tar.
    private final class Sink: ExampleSink {
        private let files: ShardFiles
        /// Scratch space for tar member names.
        private var memberName: [UInt8] = []

        init(files: ShardFiles) {
            self.files = files
        }

        func append(_ record: RunRecord, label: Int32) throws {
            try files.count(record)
            if files.sinks.isEmpty { try files.open() }
            try appendSample(record, label: label, name: &memberName, to: &files.sinks[0].buffer)
            try files.sinks[0].flushIfFull()
        }

        func finish() throws -> SinkResult {
            if files.sinks.isEmpty { try files.open() }
            TarFraming.appendEnd(archiveBytes: files.sinks[0].size, to: &files.sinks[0].buffer)
            return try files.finish()
        }
    }

    /// Appends the three tar members of `record` (its WebDataset body) with `label` to `out`;
    /// `name` is scratch space for the member names. Throws `DatasetError` for a body that is not
    /// a WebDataset body.
    static func appendSample(_ record: RunRecord, label: Int32, name: inout [UInt8], to out: inout [UInt8]) throws {
        let body = record.body
        guard body.count >= 4 else { throw DatasetError(.example, "\(record.keyIDString): not a WebDataset example body") }
        let length = Int(UInt32(littleEndian: body.loadUnaligned(as: UInt32.self)))
        guard length <= body.count - 4 else { throw DatasetError(.example, "\(record.keyIDString): not a WebDataset example body") }
        name.removeAll(keepingCapacity: true)
        WebDatasetKey.append(record.keyID, to: &name)
        let keyBytes = name.count
        name += record.flags & ExampleBody.pngImage != 0 ? Suffix.png : Suffix.npy
        try TarFraming.appendMember(name: name, size: length, to: &out) {
            $0.append(contentsOf: UnsafeRawBufferPointer(rebasing: body[4..<4 + length]))
        }
        name.removeSubrange(keyBytes...)
        name += Suffix.cls
        var digits = 1
        var rest = Int(label) / 10
        while rest > 0 { (digits, rest) = (digits + 1, rest / 10) }
        try TarFraming.appendMember(name: name, size: digits, to: &out) { out in
            let start = out.count
            out.append(contentsOf: repeatElement(0x30, count: digits))
            var value = Int(label)
            for index in stride(from: start + digits - 1, through: start, by: -1) {
                out[index] += UInt8(value % 10)
                value /= 10
            }
        }
        name.removeSubrange(keyBytes...)
        name += Suffix.json
        try TarFraming.appendMember(name: name, size: body.count - 4 - length, to: &out) {
            $0.append(contentsOf: UnsafeRawBufferPointer(rebasing: body[(4 + length)...]))
        }
    }

    /// Member name suffixes.
    private enum Suffix {
        static let npy = Array(".npy".utf8), png = Array(".png".utf8), cls = Array(".cls".utf8), json = Array(".json".utf8)
    }

    /// `{"word":…,"key_id":…,"countrycode":…,"recognized":…,"timestamp":…}` (keys in this order).
    static func json(word: String, keyID: String, facts: RecordFacts) -> [UInt8] {
        var bytes = Array(#"{"word":"#.utf8)
        SimplifiedNDJSONWriter.appendString(word, to: &bytes)
        bytes += Array(#","key_id":"#.utf8)
        SimplifiedNDJSONWriter.appendString(keyID, to: &bytes)
        bytes += Array(#","countrycode":"#.utf8)
        SimplifiedNDJSONWriter.appendString(facts.countryCode, to: &bytes)
        bytes += Array((facts.recognized ? #","recognized":true,"timestamp":"# : #","recognized":false,"timestamp":"#).utf8)
        SimplifiedNDJSONWriter.appendString(facts.timestamp, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
