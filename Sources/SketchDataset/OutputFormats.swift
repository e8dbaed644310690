/// The registry of output formats: the one table `output.format`, the manifest, `verify`, `info`
/// and the reduce side read. A new output format is one type conforming to
/// ``OutputFormatEntry`` (its own file) and one row of ``allCases`` (docs/pipelines.md, "Adding
/// an output format").
extension OutputFormat {
    /// Every output format, in the order `output.format`'s errors list them.
    public static let allCases: [OutputFormat] = [
        npy,
        tfrecord,
        webdataset,
        npz,
        OutputFormat(ImageFolderOutput.self),
    ]

    /// NPY shards, the default (``NPYOutput``).
    public static let npy = OutputFormat(NPYOutput.self)
    /// TFRecord shards (``TFRecordOutput``).
    public static let tfrecord = OutputFormat(TFRecordOutput.self)
    /// WebDataset tar shards (``WebDatasetOutput``).
    public static let webdataset = OutputFormat(WebDatasetOutput.self)
    /// One sketch-rnn `.npz` per class (``Stroke3NPZOutput``).
    public static let npz = OutputFormat(Stroke3NPZOutput.self)

    /// The format whose files a manifest lists (the first entry holding any of them), or nil.
    package static func of(files: [String]) -> OutputFormat? {
        allCases.first { format in files.contains(where: format.entry.holds) }
    }

    /// Every shard file suffix of every format.
    package static var shardSuffixes: [String] { allCases.flatMap { $0.entry.shardSuffixes } }
}
