import SketchFormats
import SketchIO

/// `output.format: imagefolder`: every example as a PNG file `{split}/{word}/{key}.png`, the
/// layout torchvision's `ImageFolder` and Hugging Face `datasets`' `imagefolder` builder read (the
/// class is the directory's name). `{key}` is the key_id escaped as for WebDataset
/// (`WebDatasetKey`: no dots, no slashes, different key_ids give different names). Rasters only
/// (gray or RGB uint8, `PNGEncoder.encode(raster:filter:)`): stroke encodings have no pixels and
/// float rasters no 8-bit PNG, and both are refused with the reason.
///
/// An example's body is its PNG file's bytes, made on the map side; the reduce side writes each
/// one to its file (atomically, hashed as written: the manifest lists every file with its size and
/// SHA-256, in dataset order). The label is the directory: `classes.txt` and the manifest give
/// the word of each label. A key_id that would make a file name longer than a file system takes is
/// refused on the map side (the record is quarantined with the reason); a key_id twice in one
/// class of one split stops the reduce side (the second image would replace the first).
package enum ImageFolderOutput: OutputFormatEntry {
    package static let name = "imagefolder"
    package static let title = "PNG image folder"
    package static let shardSuffixes: [String] = []
    package static let namesFilesByWord = true
    /// The suffix of every image file.
    static let suffix = ".png"
    /// Longest file name written: a file system's 255 bytes less the temporary name's suffix
    /// (`AtomicFileWriter` writes under a longer name first).
    static let maximumFileNameBytes = 255 - TemporaryFileName.maximumSuffixBytes

    /// `{split}/{word}/{key}.png`.
    package static func holds(_ file: String) -> Bool {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && SplitName(rawValue: String(parts[0])) != nil && parts[2].hasSuffix(suffix)
    }

    package static func refusal(of kind: ExampleKind) -> String? {
        switch kind {
        case .rasters(uint8: true): return nil
        case .rasters(uint8: false): return "imagefolder writes 8-bit PNG images; set encode.dtype: uint8"
        case .strokeTensors, .stroke3Rows:
            return "imagefolder writes PNG images and a stroke encoding has no pixels; set encode.kind: raster"
        }
    }

    package static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody {
        let nameBytes = WebDatasetKey.of(keyID).utf8.count + suffix.utf8.count
        guard nameBytes <= maximumFileNameBytes else {
            throw DatasetError(
                .example,
                "\(keyID): its image file name (the key_id escaped as for WebDataset, plus \(suffix)) is \(nameBytes) bytes, "
                    + "more than \(maximumFileNameBytes)")
        }
        guard let png = try PNGEncoder.encode(raster: payload, filter: pngFilter) else {
            throw DatasetError(.example, "\(keyID): a \(payload.dtype) \(payload.shape) payload is not a gray or RGB uint8 image")
        }
        return ExampleBody(element: ExampleBody.element(of: payload), shape: payload.shape, flags: ExampleBody.pngImage, bytes: png)
    }

    package static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink {
        guard case let .shard(directory, split, examples, _) = place else {
            throw DatasetError(.invariant, "internal: an image folder is written shard by shard")
        }
        return Sink(directory: directory, split: split, examples: examples)
    }

    /// One shard's examples, a file each.
    private final class Sink: ExampleSink {
        private let directory: String
        private let split: SplitName
        private let examples: Int
        private var result = SinkResult(entries: [], reused: 0)
        /// The class directories this sink has made (or found).
        private var classDirectories: Set<String> = []
        private var key: [UInt8] = []

        init(directory: String, split: SplitName, examples: Int) {
            (self.directory, self.split, self.examples) = (directory, split, examples)
        }

        func append(_ record: RunRecord, label: Int32) throws {
            guard result.entries.count < examples else {
                throw DatasetError(.invariant, "internal: shard of \(split.rawValue) receives more than its \(examples) examples")
            }
            let word = record.wordString
            key.removeAll(keepingCapacity: true)
            WebDatasetKey.append(record.keyID, to: &key)
            let file = "\(split.rawValue)/\(word)/\(String(decoding: key, as: UTF8.self))\(suffix)"
            if result.entries.last?.file == file {
                throw DatasetError(
                    .example,
                    "key_id \(record.keyIDString) appears twice in \(split.rawValue)/\(word): an image folder names each image by its key_id"
                )
            }
            if classDirectories.insert(word).inserted { try createDirectories("\(directory)/\(split.rawValue)/\(word)") }
            // Written into the run's staging area, which is synced as a whole before the swap.
            let sink = try HashedFileSink(path: "\(directory)/\(file)", syncs: false, capacity: record.body.count)
            sink.buffer.append(contentsOf: record.body)
            let written = try sink.finish()
            if written.reused { result.reused += 1 }
            result.entries.append(ShardFileEntry(file: file, split: split, examples: 1, bytes: written.bytes, sha256: written.sha256))
        }

        func finish() throws -> SinkResult {
            guard result.entries.count == examples else {
                throw DatasetError(
                    .invariant, "internal: shard of \(split.rawValue) got \(result.entries.count) of its \(examples) examples")
            }
            return result
        }
    }
}
