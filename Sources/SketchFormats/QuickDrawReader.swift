import SketchCore

/// Streams Quick, Draw! records (raw or simplified NDJSON) from files, directories, gzip files
/// or stdin, in constant memory: a ``DrawingSource`` that reads every input as NDJSON and looks
/// for `*.ndjson` and `*.ndjson.gz` files in directories (not recursive, byte-wise name order).
///
/// Every input is read in one pass, so pipes, FIFOs and `/dev/stdin` work like files. Gzip is
/// recognised by its magic bytes. Blank lines are skipped, and a UTF-8 byte order mark at the
/// start of a file. Every other line becomes either a record (`onRecord`) or a `RejectedLine`
/// (`onRejected`) with the reason. Damaged input is one source error each
/// (`RejectedLine.sourceError`, counted apart from records): a gzip member with a bad CRC or
/// length keeps its records and reading goes on; a truncated or corrupt gzip tail keeps the
/// records decoded before it; a read error or an input that cannot be opened ends that input.
/// Nothing in the data stops a run; only errors thrown by the callbacks do.
public struct QuickDrawReader: Sendable {
    private var source: DrawingSource

    /// Expands `inputs`; throws `FormatError` for a path that does not exist or a directory
    /// without NDJSON files.
    public init(inputs: [String]) throws {
        source = try DrawingSource(inputs: inputs, format: .ndjson, fileSuffixes: NDJSONInputFormat.fileSuffixes, recursiveFileSuffixes: [])
    }

    /// The files to read in order (`-` for stdin), after directory expansion.
    public var files: [String] { source.files }
    /// Directory entries that cannot be read; every read hands each to `onRejected` as a source
    /// error before the first record.
    public var rejectedSources: [RejectedLine] { source.rejectedSources }
    /// Warnings for device files and FIFOs found in input directories and skipped.
    public var skippedSources: [String] { source.skippedSources }
    /// Total size in bytes of the inputs as stored, or nil when one of them is stdin.
    public var inputByteCount: Int? { source.inputByteCount }

    /// Longest line accepted; longer lines are rejected with their first this-many bytes.
    public var maximumLineLength: Int {
        get { source.maximumLineLength }
        set { source.maximumLineLength = newValue }
    }
    /// Read only the first this-many non-blank lines of each input (`--limit`); nil: all.
    public var recordLimitPerInput: Int? {
        get { source.recordLimitPerInput }
        set { source.recordLimitPerInput = newValue }
    }
    /// Whether records keep their strokes' `t` arrays (they are validated either way).
    public var keepsTimestamps: Bool {
        get { source.keepsTimestamps }
        set { source.keepsTimestamps = newValue }
    }

    /// Reads every input in order (``DrawingSource/read(onRecord:onRejected:onProgress:)``).
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        try source.read(onRecord: onRecord, onRejected: onRejected, onProgress: onProgress)
    }

    /// Reads every input like ``read(onRecord:onRejected:onProgress:)``, handing each record with
    /// its ``RecordLine`` (its line and the `stroke3_deltas` it held), valid during the call.
    package func readWithLines(
        onRecord: (SketchRecord, RecordLine, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void
    ) throws {
        try source.readWithLines(onRecord: onRecord, onRejected: onRejected)
    }

    /// The first `limit` valid records of the inputs, in order; reading stops there.
    public func readFirst(_ limit: Int, onRejected: (RejectedLine) throws -> Void) throws -> [SketchRecord] {
        try source.readFirst(limit, onRejected: onRejected)
    }

    /// Reads every input with each record's points in flat storage
    /// (``DrawingSource/readFlat(onRecord:onRejected:onProgress:)``).
    public func readFlat(
        onRecord: (SketchRecord, FlatStrokes, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        try source.readFlat(onRecord: onRecord, onRejected: onRejected, onProgress: onProgress)
    }
}
