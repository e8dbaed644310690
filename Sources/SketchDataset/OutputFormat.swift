import SketchFormats

/// An output format of a dataset (`output.format`): one entry of the registry
/// (``OutputFormat/allCases``, OutputFormats.swift), whose type (``OutputFormatEntry``) makes each
/// example's bytes on the map side and writes them on the reduce side. Its raw value is its name;
/// two formats are equal when their names are.
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible, RawRepresentable, CaseIterable {
    /// The format's type.
    package let entry: any OutputFormatEntry.Type

    package init(_ entry: any OutputFormatEntry.Type) {
        self.entry = entry
    }

    /// The registered format named `rawValue`, or nil.
    public init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.name == rawValue }) else { return nil }
        self = format
    }

    /// Its name in `output.format`, in the manifest's configuration and in `sketchprep info`.
    public var name: String { entry.name }
    public var rawValue: String { entry.name }
    public var description: String { entry.name }

    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// What a format's files hold: what the reduce side opens a sink for.
package enum OutputGrouping: Sendable {
    /// Shards of one split, `examplesPerShard` examples each, named by ``ShardNaming``.
    case shards
    /// One file per class holding every split (sketch-rnn `.npz`).
    case classes
}

/// What the encode stage makes of each example, for ``OutputFormatEntry/refusal(of:)``.
package enum ExampleKind: Sendable, Equatable {
    /// Stroke tensors (`encode.kind: strokes`).
    case strokeTensors
    /// Stroke-3 rows (`encode.kind: stroke3`).
    case stroke3Rows
    /// Rasters (`encode.kind: raster`): `uint8` true when they are gray or RGB uint8 images.
    case rasters(uint8: Bool)
}

/// One output format: the sink protocol every writer of a dataset's files implements. The map
/// side makes each example's bytes once (``body(payload:keyID:word:facts:encoding:fragments:pngFilter:)``,
/// PNG compression and serialization included); the reduce side opens a sink for each shard (or
/// for its classes, ``grouping``), appends the examples in dataset order with their labels, which
/// only moves bytes, and finishes it into manifest entries (per-file size and SHA-256).
package protocol OutputFormatEntry: Sendable {
    /// `output.format`'s value.
    static var name: String { get }
    /// The format in words (`sketchprep info`).
    static var title: String { get }
    /// The suffixes of a shard's files (``ShardNaming``), in writing order; empty for a format
    /// whose files are not named as shards.
    static var shardSuffixes: [String] { get }
    /// What a sink holds.
    static var grouping: OutputGrouping { get }
    /// Whether file or directory names hold class words, so words that differ only in case are
    /// one name on case-insensitive file systems and are quarantined as colliding.
    static var namesFilesByWord: Bool { get }
    /// Whether every example must have one element type and shape (``ShardingOptions``' NPY rule).
    static var needsOneShape: Bool { get }
    /// Whether bodies are deflated on the map side (a worker keeps one `DeflateFragmentEncoder`).
    static var deflatesBodies: Bool { get }
    /// Whether `file`, a name the manifest lists, is one of this format's files.
    static func holds(_ file: String) -> Bool
    /// Why the format cannot hold examples of `kind` (to show with `output.format`), or nil.
    static func refusal(of kind: ExampleKind) -> String?
    /// The bytes of one example (``ExampleBody``); throws `DatasetError` for a payload the format
    /// cannot hold (the map side quarantines the record with the reason) and `FormatError` when
    /// PNG encoding or deflating fails.
    static func body(
        payload: TensorPayload, keyID: String, word: String, facts: RecordFacts, encoding: ExampleBody.Encoding,
        fragments: DeflateFragmentEncoder?, pngFilter: PNGEncoder.RowFilter
    ) throws -> ExampleBody
    /// Opens the sink of `place`.
    static func open(_ place: SinkPlace, options: ShardingOptions) throws -> any ExampleSink
}

/// Where a sink writes.
package enum SinkPlace {
    /// A shard of `examples` examples of `split`; its file with suffix `s` is `directory/fileName(s)`.
    case shard(directory: String, split: SplitName, examples: Int, fileName: (String) -> String)
    /// The files of `classes` (label, word), holding every split.
    case classes(directory: String, classes: [(label: Int, word: String)])
}

/// The reduce side's writer of one shard (or of a part's classes): examples arrive in dataset
/// order, each appended in O(1) work besides copying its bytes.
package protocol ExampleSink: AnyObject {
    /// Appends the next example with its label (its split is the record's own).
    func append(_ record: RunRecord, label: Int32) throws
    /// Closes the files: their manifest entries (with each one's order among the dataset's files
    /// when the format orders them itself, else nil) and how many were already complete.
    func finish() throws -> SinkResult
}

/// What a sink wrote.
package struct SinkResult {
    /// The files, in the dataset's order within the sink.
    package var entries: [ShardFileEntry]
    /// Per file, its place among the part's files (``OutputGrouping/classes``: the class index).
    package var order: [Int]?
    /// Files already present with the same bytes, left untouched.
    package var reused: Int

    package init(entries: [ShardFileEntry], order: [Int]? = nil, reused: Int) {
        (self.entries, self.order, self.reused) = (entries, order, reused)
    }
}

extension OutputFormatEntry {
    package static var namesFilesByWord: Bool { false }
    package static var needsOneShape: Bool { false }
    package static var deflatesBodies: Bool { false }
    package static var grouping: OutputGrouping { .shards }
    package static func holds(_ file: String) -> Bool { shardSuffixes.contains { file.hasSuffix($0) } }
}
