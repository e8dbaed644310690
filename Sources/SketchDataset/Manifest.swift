import Foundation
import SketchFormats
import SketchIO

/// `manifest.json`: everything needed to know what a dataset directory holds and how it was made.
///
/// It contains no timestamps, host names or absolute output paths, so the same inputs and
/// configuration give a byte-identical manifest (keys sorted, two-space indentation, final newline).
public struct Manifest: Sendable, Equatable, Codable {
    /// Version of this layout.
    public var formatVersion: Int
    /// Pipeline name, the file it came from and its full resolved configuration.
    public var pipeline: PipelineInfo
    /// Input files with size and SHA-256.
    public var sources: [SourceFileEntry]
    /// Class index ↔ word.
    public var classes: [ClassEntry]
    /// Examples per split (`train`, `val`, `test`): total and per class word.
    public var counts: [String: SplitCounts]
    /// Every shard file with its SHA-256.
    public var shards: [ShardFileEntry]
    /// Record reconciliation: `read = written + filtered + rejected`.
    public var records: RecordCounts
    /// Quarantine file of rejected lines, relative to the output directory (nil when none were rejected).
    public var quarantine: String?
    /// Versions of sketchprep and of the C libraries whose output is in the bytes (zlib, libdeflate,
    /// libpng, cairo): the same inputs give the same bytes for the same versions.
    public var libraries: [String: String]?
    /// The run's settings that change the bytes beyond the configuration and the sources
    /// (`--limit`, the pipeline file's own bytes); nil in manifests that are not a pipeline's.
    public var settings: RunSettings?

    /// The layout version this build writes: 2 orders shards by the hash of the key_id (sorted
    /// runs), lists input chunks, records library versions and adds `key_id` to TFRecords; 3 adds
    /// `settings` (record limit, pipeline file SHA-256) and quarantines unsafe names; 4 writes each
    /// TFRecord `Example`'s label entry after its other features (the reduce side appends it to the
    /// bytes the map side serialized); 5 records the pipeline file's text (`pipeline.text`), so
    /// `preprocess --from DIR` can run the same pipeline again, and lets a listed file lie in a
    /// subdirectory (`shards[].file` may hold `/`: a format whose files are grouped in directories)
    /// and names libdeflate among the `libraries` (it deflates RGB PNGs).
    public static let currentFormatVersion = 5

    /// Creates a manifest (``currentFormatVersion``).
    public init(
        pipeline: PipelineInfo, sources: [SourceFileEntry], classes: [ClassEntry],
        counts: [String: SplitCounts], shards: [ShardFileEntry], records: RecordCounts, quarantine: String?,
        libraries: [String: String]? = nil, settings: RunSettings? = nil
    ) {
        formatVersion = Self.currentFormatVersion
        self.libraries = libraries
        self.settings = settings
        self.pipeline = pipeline
        self.sources = sources
        self.classes = classes
        self.counts = counts
        self.shards = shards
        self.records = records
        self.quarantine = quarantine
    }

    /// The pipeline that produced the dataset.
    public struct PipelineInfo: Sendable, Equatable, Codable {
        /// Pipeline name.
        public var name: String
        /// The pipeline file as given on the command line.
        public var file: String
        /// The resolved configuration (every default filled in, command-line overrides applied).
        public var config: JSONValue
        /// The pipeline file's text as read (nil for datasets that are not a pipeline's, such as
        /// `import-bitmaps`, and in manifests before format 5): what `preprocess --from` runs again.
        public var text: String?
        /// Creates the section.
        public init(name: String, file: String, config: JSONValue, text: String? = nil) {
            self.name = name
            self.file = file
            self.config = config
            self.text = text
        }
    }

    /// Settings of a pipeline run that change its output and are not in the configuration.
    public struct RunSettings: Sendable, Equatable, Codable {
        /// `--limit N`: only the first N records of each input were read (a trial, not the whole
        /// input); nil when every record was read.
        public var recordLimit: Int?
        /// SHA-256 of the pipeline file's bytes as read.
        public var pipelineSHA256: String
        /// Creates the settings.
        public init(recordLimit: Int?, pipelineSHA256: String) {
            self.recordLimit = recordLimit
            self.pipelineSHA256 = pipelineSHA256
        }
        enum CodingKeys: String, CodingKey {
            case recordLimit = "record_limit"
            case pipelineSHA256 = "pipeline_sha256"
        }
        /// Encodes the settings; `record_limit` is written as `null` when there is none, so the
        /// manifest says so.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(recordLimit, forKey: .recordLimit)
            try container.encode(pipelineSHA256, forKey: .pipelineSHA256)
        }
    }

    /// One input file, or one chunk of a large plain input file.
    public struct SourceFileEntry: Sendable, Equatable, Codable {
        /// Path as given (or as expanded from a directory).
        public var path: String
        /// First byte of the chunk when the entry is a byte range of the file (nil: the whole file).
        public var offset: Int?
        /// Size in bytes.
        public var bytes: Int
        /// SHA-256, lower-case hex.
        public var sha256: String
        /// Creates an entry.
        public init(path: String, offset: Int? = nil, bytes: Int, sha256: String) {
            self.path = path
            self.offset = offset
            self.bytes = bytes
            self.sha256 = sha256
        }

        /// Hashes the file at `path`, 1 MiB at a time.
        public static func measuring(path: String) throws -> SourceFileEntry {
            let measured = try InputFile.measure(path)
            return SourceFileEntry(path: path, bytes: measured.bytes, sha256: measured.sha256)
        }
    }

    /// One class.
    public struct ClassEntry: Sendable, Equatable, Codable {
        /// Label value in the shards.
        public var index: Int
        /// Category word.
        public var word: String
        /// Creates an entry.
        public init(index: Int, word: String) {
            self.index = index
            self.word = word
        }
    }

    /// Examples in one split.
    public struct SplitCounts: Sendable, Equatable, Codable {
        /// All examples of the split.
        public var total: Int
        /// Examples per class word.
        public var perClass: [String: Int]
        /// Creates counts.
        public init(total: Int, perClass: [String: Int]) {
            self.total = total
            self.perClass = perClass
        }
        enum CodingKeys: String, CodingKey {
            case total
            case perClass = "per_class"
        }
    }

    enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version"
        case pipeline, sources, classes, counts, shards, records, quarantine, libraries, settings
    }

    /// The canonical JSON bytes (sorted keys, pretty-printed, no escaped slashes, final newline).
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [0x0A]
    }

    /// Reads a manifest file; throws `DatasetError` naming the path when it cannot be read or is
    /// not a manifest.
    public static func read(path: String) throws -> Manifest {
        try decode(try InputFile.readAll(path, maximumBytes: maximumFileBytes), path: path)
    }

    /// A one-line description of a decoding failure: the key path and what was wrong.
    package static func describe(_ error: DecodingError) -> String {
        let (context, what): (DecodingError.Context, String) =
            switch error {
            case let .dataCorrupted(context): (context, "corrupt JSON")
            case let .keyNotFound(key, context): (context, "missing key \(key.stringValue)")
            case let .typeMismatch(_, context): (context, "wrong type")
            case let .valueNotFound(_, context): (context, "missing value")
            @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "undecodable")
            }
        let keyPath = context.codingPath.map(\.stringValue).joined(separator: ".")
        return keyPath.isEmpty ? what : "\(what) at \(keyPath)"
    }
}
