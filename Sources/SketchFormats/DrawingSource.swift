import Foundation
import SketchCore
import SketchIO

/// Reads drawings from any mix of Quick, Draw! NDJSON (raw or simplified), Google `.bin` and
/// sketch-rnn stroke-3 `.npz` inputs: the one way data commands read drawings.
///
/// Inputs are files, directories (their `*.ndjson`, `*.ndjson.gz`, `*.bin`, `*.bin.gz` and
/// `*.npz` files, not recursive, in byte-wise name order) or `-` for stdin. Each file's format is
/// the one given, or with `format == nil` decided by content (`DrawingFileFormat.detect`).
/// Every read goes through the engine's batch readers (``InputBatches``: each format's plug-in
/// cuts raw batches, `InputFormatRegistry`) and ``RecordBatchDecoder``, whether
/// the streaming engine reads in parallel or ``read(onRecord:onRejected:onProgress:)`` on the
/// calling thread. `.bin` records get their word from the file name, or `word`; stroke-3
/// records get the file's name without `.npz` as word, `<file name>#<split>#<index>` as key_id, an
/// empty country and timestamp and `recognized` true. Standard input and other streams (pipes,
/// FIFOs) are NDJSON unless `format` says otherwise, or copied to a temporary file when the
/// reader asks for their format by content (``engineInputs(spoolingStreams:)``); `.bin` on stdin
/// needs `word`, and stroke-3 is not read from stdin. A file whose content matches no format is
/// read as NDJSON when its name ends in `.ndjson[.gz]` (each bad line quarantined), otherwise it
/// is a source error (`RejectedLine.sourceError`), as is a stroke-3 file that cannot be decoded.
/// A record over a `DrawingLimits` bound while it is processed (`onRecord` throws
/// `DrawingLimitError`) is rejected and reading goes on.
public struct DrawingSource: Sendable {
    /// The files to read in order (`-` for stdin), after directory expansion.
    public let files: [String]
    /// The format forced for every input, or nil to detect each by content.
    public let format: DrawingFileFormat?
    /// The word of `.bin` records read from stdin (and of every `.bin` input when set).
    public let word: String?
    /// Whether NDJSON records keep their strokes' `t` arrays.
    public var keepsTimestamps = true
    /// Longest NDJSON line accepted; longer lines are rejected with their first this-many bytes.
    public var maximumLineLength = DrawingLimits.maximumLineBytes
    /// Read only the first this-many records of each input (`--limit`); nil: all.
    public var recordLimitPerInput: Int?

    /// Directory entries that cannot be read (dangling links, link loops, unreadable files,
    /// non-UTF-8 names); every read hands each to `onRejected` as a source error
    /// (``rejectedSourceErrors``) before the first record.
    public let rejectedSources: [RejectedLine]
    /// Warnings for device files and FIFOs found in input directories and skipped, for the
    /// caller to show.
    public let skippedSources: [String]

    /// Expands `inputs` (directories through `DirectoryWalk`, looking for `fileSuffixes` and, at
    /// every level, `recursiveFileSuffixes`); throws `FormatError` for a missing path or a
    /// directory without drawing files. A path named explicitly is read whatever it is (a FIFO,
    /// `/dev/stdin`); in a directory only regular files are read.
    public init(
        inputs: [String], format: DrawingFileFormat? = nil, word: String? = nil,
        fileSuffixes: [String] = fileSuffixes, recursiveFileSuffixes: [String] = recursiveFileSuffixes
    ) throws {
        let (files, listing) = try InputExpansion.expand(inputs, suffixes: fileSuffixes, recursiveSuffixes: recursiveFileSuffixes)
        if files.contains("-") && format == .stroke3 {
            throw FormatError(.input, "stroke-3 .npz cannot be read from standard input; pass the file")
        }
        if files.contains("-") && format == .bin && word == nil {
            throw FormatError(.input, "a .bin on standard input has no file name to take its word from: pass --word WORD")
        }
        self.files = files
        self.format = format
        self.word = word
        rejectedSources = listing.rejected
        skippedSources = listing.skipped
    }

    /// ``rejectedSources`` as source errors (`RejectedLine.sourceError`, at byte 0), the form in
    /// which every read counts and quarantines them.
    package var rejectedSourceErrors: [RejectedLine] {
        rejectedSources.map { .sourceError($0.location.file, byteOffset: 0, reason: $0.reason) }
    }

    /// The first `limit` valid records of the inputs, in order; reading stops there. Inputs are
    /// read as the streaming engine reads them (``engineInputs()``), batch by batch, so nothing
    /// after the batch of the last record needed is read. Inputs that cannot be opened are handed
    /// to `onRejected` like every other source error; no error is thrown for them.
    public func readFirst(_ limit: Int, onRejected: (RejectedLine) throws -> Void) throws -> [SketchRecord] {
        var records: [SketchRecord] = []
        guard limit > 0 else { return records }
        try readInOrder(
            flatPoints: false, requiresAnOpenedInput: false,
            onRecord: { record, _, _, _ in
                records.append(record)
                return records.count < limit
            }, onRejected: onRejected, onProgress: { _ in })
        return records
    }

    /// Reads every input in order on the calling thread; locations are the file and 1-based line
    /// (NDJSON, CSV), record (`.bin`) or position within the file (stroke-3, the splits in the
    /// zip's entry order). A record `onRecord` refuses with `DrawingLimitError` is rejected with that reason and
    /// reading goes on; when no input at all can be opened, the read ends with a `FormatError`
    /// (``FormatError/Kind/noInputReadable``) after reporting them. `onProgress` receives the
    /// stored bytes consumed so far after each batch.
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        try readInOrder(
            flatPoints: false, requiresAnOpenedInput: true,
            onRecord: { record, _, _, location in
                try onRecord(record, location)
                return true
            }, onRejected: onRejected, onProgress: onProgress)
    }

    /// Reads every input like ``read(onRecord:onRejected:onProgress:)``, handing each record with
    /// its ``RecordLine`` (valid during the call): its quarantine form, and what its format keeps
    /// beside it (a float64 stroke-3 record's exact deltas).
    package func readWithLines(
        onRecord: (SketchRecord, RecordLine, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void
    ) throws {
        try readInOrder(
            flatPoints: false, requiresAnOpenedInput: true,
            onRecord: { record, _, line, location in
                try onRecord(record, line, location)
                return true
            }, onRejected: onRejected, onProgress: { _ in })
    }

    /// Reads every input like ``read(onRecord:onRejected:onProgress:)``, handing each record's
    /// strokes in flat storage that is reused from record to record (their times too where the
    /// reader keeps them and the input has them); the record's own `drawing` is empty.
    public func readFlat(
        onRecord: (SketchRecord, FlatStrokes, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        try readInOrder(
            flatPoints: true, requiresAnOpenedInput: true,
            onRecord: { record, strokes, _, location in
                try onRecord(record, strokes, location)
                return true
            }, onRejected: onRejected, onProgress: onProgress)
    }

    /// The sequential read behind every entry point: the engine's batches (``InputBatches``)
    /// decoded by ``RecordBatchDecoder`` on the calling thread, in input order, until `onRecord`
    /// returns false. Rejected directory entries and files of no known format come first, as
    /// source errors.
    private func readInOrder(
        flatPoints: Bool, requiresAnOpenedInput: Bool,
        onRecord: (SketchRecord, FlatStrokes, RecordLine, SourceLocation) throws -> Bool,
        onRejected: (RejectedLine) throws -> Void, onProgress: (Int) -> Void
    ) throws {
        for rejected in rejectedSourceErrors { try onRejected(rejected) }
        let (inputs, unreadable) = engineInputs()
        for rejected in unreadable { try onRejected(rejected) }
        let batches = batches(of: inputs)
        var decoder = RecordBatchDecoder(keepsTimestamps: keepsTimestamps, flatPoints: flatPoints, maximumLineLength: maximumLineLength)
        for batch in batches {
            let file = inputs[batch.chunk].name
            func handle(_ entry: RawLineBatch.Entry, _ decoded: DecodedEntry, _ strokes: FlatStrokes) throws -> Bool {
                let location = SourceLocation(file: file, line: entry.lineInChunk)
                switch decoded {
                case let .record(record, line):
                    do {
                        return try onRecord(record, strokes, line, location)
                    } catch {
                        guard let limit = error as? DrawingLimitError else { throw error }
                        try onRejected(RejectedLine(location: location, reason: limit.reason, bytes: line.bytes))
                    }
                case let .rejected(reason, bytes):
                    try onRejected(RejectedLine(location: location, reason: reason, bytes: Array(bytes)))
                case let .sourceError(byteOffset, reason):
                    try onRejected(.sourceError(file, byteOffset: byteOffset, reason: reason))
                }
                return true
            }
            // The handlers' errors stop the batch and are thrown here, not through `decode`: an
            // error thrown through its body crashes (Swift 6.3, a null type-metadata access while
            // unwinding; `anErrorThrownByTheRecordHandlerStopsTheReadAndReachesTheCaller`).
            var failure: (any Error)?
            let goesOn = decoder.decode(batch) { entry, decoded, strokes in
                do { return try handle(entry, decoded, strokes) } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            onProgress(batches.consumedBytes)
            if !goesOn { return }
        }
        if requiresAnOpenedInput {
            try requireAnInputOpened(in: batches, refused: unreadable.count)
        }
    }

    /// The engine's batches of `inputs` (``engineInputs()``), each input whole and in order, at most
    /// `linesPerBatch` lines a batch, with this source's line and record caps: how every read of a
    /// source cuts its inputs.
    package func batches(of inputs: [EngineInput], linesPerBatch: Int = InputBatches.defaultLinesPerBatch) -> InputBatches {
        InputBatches(
            sources: inputs.map(\.batchSource), selected: Array(inputs.indices), hashing: false,
            maximumLineLength: maximumLineLength, linesPerBatch: linesPerBatch, recordLimit: recordLimitPerInput)
    }

    /// After the last of `batches` (``batches(of:linesPerBatch:)``): throws
    /// ``FormatError/Kind/noInputReadable`` when none of this source's inputs could be opened,
    /// `refused` of them refused before reading (``engineInputs()``'s unreadable ones); the
    /// message counts every input given, rejected directory entries included.
    package func requireAnInputOpened(in batches: InputBatches, refused: Int) throws(FormatError) {
        try batches.requireAnInputOpened(refused: refused, count: files.count + rejectedSources.count)
    }

    /// One input file as the streaming engine reads it: its format, and the word of its records
    /// (`.bin`: `word` or the file name's word; stroke-3: `word` or the file name without
    /// `.npz`; NDJSON: unused, records carry their own).
    package struct EngineInput: Sendable {
        /// Where the input's bytes are read: the input itself, or a copy of a stream
        /// (``engineInputs(spoolingStreams:)``).
        package var path: String
        /// The input as given (or as expanded from a directory): what locations name.
        package var name: String
        package var format: DrawingFileFormat
        package var word: String

        /// The input as the engine's batch sequence reads it, whole.
        package var batchSource: InputBatches.Source { InputBatches.Source(path: path, format: format, word: word) }
    }

    /// The files with their formats for the streaming engine, which reads each input once from
    /// its start: the given `format`, else a regular file's format by content
    /// (`DrawingFileFormat.detect`), and NDJSON for standard input and other streams (their
    /// content cannot be looked at before it is read: pass `--format` for a `.bin` stream).
    /// A regular file whose content matches no format is read as NDJSON when its name ends in
    /// `.ndjson[.gz]`, otherwise it is returned as a rejected source.
    package func engineInputs() -> (inputs: [EngineInput], rejected: [RejectedLine]) {
        var inputs: [EngineInput] = []
        var rejected: [RejectedLine] = []
        for file in files {
            do {
                let fileFormat = try format ?? (Self.isRegularFile(file) ? Self.detectFormatOrNDJSONName(path: file, name: file) : .ndjson)
                inputs.append(EngineInput(path: file, name: file, format: fileFormat, word: word(of: file, format: fileFormat)))
            } catch {
                rejected.append(.sourceError(file, byteOffset: 0, reason: (error as? FormatError)?.description ?? "\(error)"))
            }
        }
        return (inputs, rejected)
    }

    /// Like ``engineInputs()``, except that without a forced `format` every stream (standard input,
    /// a pipe, a FIFO) is first copied to a temporary file, `spooled`, so that its format is told by
    /// content like a file's (`convert`); the caller removes the copies (`removeSpooled`). A `.bin`
    /// on standard input without `word`, and stroke-3 on standard input, are refused.
    package func engineInputs(spoolingStreams: Bool) throws -> (inputs: [EngineInput], rejected: [RejectedLine], spooled: [String]) {
        guard spoolingStreams && format == nil else {
            let (inputs, rejected) = engineInputs()
            return (inputs, rejected, [])
        }
        var inputs: [EngineInput] = []
        var rejected: [RejectedLine] = []
        var spooled: [String] = []
        do {
            for file in files {
                var path = file
                if !Self.isRegularFile(file) {
                    path = try Self.spool(file)
                    spooled.append(path)
                }
                let fileFormat: DrawingFileFormat
                do { fileFormat = try Self.detectFormatOrNDJSONName(path: path, name: file) } catch {
                    rejected.append(.sourceError(file, byteOffset: 0, reason: (error as? FormatError)?.description ?? "\(error)"))
                    continue
                }
                if fileFormat == .bin && file == "-" && word == nil {
                    throw FormatError(
                        .input, "standard input holds a Google .bin, which has no file name to take its word from: pass --word WORD")
                }
                if fileFormat == .stroke3 && file == "-" {
                    throw FormatError(.input, "stroke-3 .npz cannot be read from standard input; pass the file")
                }
                inputs.append(EngineInput(path: path, name: file, format: fileFormat, word: word(of: file, format: fileFormat)))
            }
        } catch {
            Self.removeSpooled(spooled)
            throw error
        }
        return (inputs, rejected, spooled)
    }

    /// Removes the stream copies of ``engineInputs(spoolingStreams:)``.
    package static func removeSpooled(_ paths: [String]) {
        for path in paths {
            try? FileSystem.remove(path)
            TemporaryFiles.unregister(path)
        }
    }

    /// The format of the file at `path` by content; when content tells nothing, NDJSON for an input
    /// `name`d like NDJSON (so each bad line is quarantined with its own reason), else the error.
    private static func detectFormatOrNDJSONName(path: String, name: String) throws -> DrawingFileFormat {
        do { return try detectFormat(path: path) } catch let error as FormatError {
            if name.hasSuffix(".ndjson") || name.hasSuffix(".ndjson.gz") { return .ndjson }
            throw error
        }
    }

    /// The word of the records of `file` read as `format` (its plug-in's rule, see ``EngineInput``).
    private func word(of file: String, format: DrawingFileFormat) -> String { format.plugin.word(ofFile: file, given: word) }

    /// File name endings a directory is searched for.
    public static var fileSuffixes: [String] { InputFormatRegistry.fileSuffixes }

    /// File name endings a directory is searched for at every level below it (sketch datasets
    /// keep one directory per class).
    public static var recursiveFileSuffixes: [String] { InputFormatRegistry.recursiveFileSuffixes }

    /// Total size in bytes of the inputs as stored, or nil when one of them is stdin.
    public var inputByteCount: Int? {
        var total = 0
        for file in files {
            guard file != "-", let size = try? FileSystem.status(file).size else { return nil }
            total += Int(size)
        }
        return total
    }

    /// The format of the file at `path` by content; throws `FormatError` when no rule matches.
    public static func detectFormat(path: String) throws -> DrawingFileFormat {
        let source: ByteSource
        let quick = DrawingFileFormat.quickSniffLengths.last!
        do { source = try ByteSource(path: path, readSize: quick) } catch {
            throw FormatError(.input, "cannot read \(path): \((error as? IOError)?.reason ?? "\(error)")")
        }
        // The first bytes decide most inputs (`detect(prefix:)`); more are read only when they do
        // not. A read error leaves the input to be read as NDJSON, whose read then reports it.
        let stream = BufferedByteStream(source: source, capacity: quick)
        var bytes: [UInt8] = []
        for length in DrawingFileFormat.quickSniffLengths {
            let wanted = length - bytes.count
            guard let count = try? stream.append(wanted, to: &bytes) else { return .ndjson }
            if bytes.isEmpty { return .ndjson }  // An empty input holds no records in any format.
            if let format = DrawingFileFormat.detect(prefix: bytes) { return format }
            if count < wanted { break }  // The input ended: the whole of it is the sniff.
        }
        if bytes.count == quick, (try? stream.append(DrawingFileFormat.sniffLength - quick, to: &bytes)) == nil { return .ndjson }
        guard let format = DrawingFileFormat.detect(bytes) else {
            throw FormatError(
                .input,
                """
                cannot tell the format of \(path): not NDJSON (first non-blank byte is not '{' or no line parses), \
                not a Kaggle CSV (no Kaggle header line), not an SVG (no <svg element), not a Google .bin (its first records are not structurally consistent), \
                not a stroke-3 .npz (no zip magic); pass --format ndjson|bin|stroke3|csv|svg to read it as one
                """)
        }
        return format
    }

    private static func isRegularFile(_ path: String) -> Bool {
        path != "-" && (try? FileSystem.status(path))?.isRegular == true
    }

    /// Copies the stream `file` (`-` for stdin) to a temporary file, so its format can be detected
    /// before it is read, and returns the copy's path.
    private static func spool(_ file: String) throws -> String {
        let path = TemporaryFileName.forWriting(NSTemporaryDirectory() + "sketchprep-stdin")
        TemporaryFiles.register(path)
        let writer = try AtomicFileWriter(path: path)
        let source: ByteSource
        do { source = try ByteSource(path: file) } catch {
            throw FormatError(.input, "cannot read \(file): \((error as? IOError)?.reason ?? "\(error)")")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try source.read(into: buffer) } catch {
                throw FormatError(.input, "cannot read \(file): \((error as? IOError)?.reason ?? "\(error)")")
            }
            if count == 0 { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        try writer.commit()
        return path
    }
}
