import Foundation
import SketchCore
import SketchIO

/// Reads drawings from any mix of Quick, Draw! NDJSON (raw or simplified), Google `.bin` and
/// sketch-rnn stroke-3 `.npz` inputs: the one way data commands read drawings.
///
/// Inputs are files, directories (their `*.ndjson`, `*.ndjson.gz`, `*.bin`, `*.bin.gz` and
/// `*.npz` files, not recursive, in byte-wise name order) or `-` for stdin. Each file's format is
/// the one given, or with `format == nil` decided by content (`DrawingFileFormat.detect`).
/// NDJSON goes through `QuickDrawReader`, `.bin` through `GoogleBinaryReader` (word from the file
/// name, or `word`), stroke-3 through `Stroke3NPZ`: its records get the file's name without
/// `.npz` as word, `<file name>#<split>#<index>` as key_id, an empty country and timestamp and
/// `recognized` true. Standard input and other streams (pipes, FIFOs) are copied to a temporary
/// file when their format must be detected; `.bin` on stdin needs `word`, and stroke-3 is not read from stdin. A file whose
/// content matches no format is read as NDJSON when its name ends in `.ndjson[.gz]` (each bad
/// line quarantined), otherwise it is a source error (`RejectedLine.sourceError`), as is a
/// stroke-3 file that cannot be decoded. A record over a `DrawingLimits` bound while it is
/// processed (`onRecord` throws `DrawingLimitError`) is rejected and reading goes on.
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

    /// Directory entries that cannot be read; `read` hands each to `onRejected` as a source error
    /// before the first record (see `QuickDrawReader.rejectedSources`).
    public let rejectedSources: [RejectedLine]
    /// Warnings for device files and FIFOs found in input directories and skipped.
    public let skippedSources: [String]

    /// Expands `inputs` (directories through `DirectoryWalk`); throws `FormatError` for a missing
    /// path or a directory without drawing files.
    public init(inputs: [String], format: DrawingFileFormat? = nil, word: String? = nil) throws {
        let (files, listing) = try InputExpansion.expand(inputs, suffixes: Self.fileSuffixes,
                                                          recursiveSuffixes: Self.recursiveFileSuffixes)
        if files.contains("-") && format == .stroke3 { throw FormatError(.input, "stroke-3 .npz cannot be read from standard input; pass the file") }
        if files.contains("-") && format == .bin && word == nil {
            throw FormatError(.input, "a .bin on standard input has no file name to take its word from: pass --word WORD")
        }
        self.files = files
        self.format = format
        self.word = word
        rejectedSources = listing.rejected
        skippedSources = listing.skipped
    }

    /// Prints ``skippedSources`` as warnings on stderr, prefixed with `tool: `.
    public func printSkippedSources(tool: String) {
        DirectoryListing.printWarnings(skippedSources, tool: tool)
    }

    /// The first `limit` valid records of the inputs, in order; reading stops there. Inputs are
    /// read as the streaming engine reads them (``engineInputs()``), record by record, so nothing
    /// after the last record needed is read.
    public func readFirst(_ limit: Int, onRejected: (RejectedLine) throws -> Void) throws -> [SketchRecord] {
        var records: [SketchRecord] = []
        guard limit > 0 else { return records }
        for rejected in rejectedSources { try onRejected(rejected) }
        let (inputs, unreadable) = engineInputs()
        for rejected in unreadable { try onRejected(rejected) }
        for (chunk, input) in inputs.enumerated() where records.count < limit {
            _ = try readItems(of: input.path, as: input.format, label: input.path, chunk: chunk) { item in
                switch item {
                case let .record(record, _, _): records.append(record)
                case let .rejected(line): try onRejected(line)
                }
                return records.count < limit
            }
        }
        return records
    }

    /// One thing read from an input: a record with its line (NDJSON, or the NDJSON form of a
    /// decoded record) and location, or a rejection ready for the quarantine.
    private enum ReadItem {
        case record(SketchRecord, UnsafeBufferPointer<UInt8>, SourceLocation)
        case rejected(RejectedLine)
    }

    /// Reads the file at `path` as `format` through the engine's batch readers (`InputChunkReader`,
    /// `DecodedRecordBatches`; `recordLimitPerInput` applies), locations naming `file`, handing each
    /// item to `body` until it returns false. Returns whether the input could be opened.
    private func readItems(of path: String, as format: DrawingFileFormat, label file: String, chunk: Int,
                           progress: (Int) -> Void = { _ in }, _ body: (ReadItem) throws -> Bool) throws -> Bool {
        let reader = format.batchReader(path: path, range: nil, chunk: chunk, hashing: false, word: word(of: file, format: format),
                                        maximumLineLength: maximumLineLength, recordLimit: recordLimitPerInput)
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        var opened = true
        while let batch = reader.nextBatch() {
            for (index, entry) in batch.entries.enumerated() {
                let location = SourceLocation(file: file, line: entry.lineInChunk)
                let goesOn = try batch.withEntry(index, maximumLineLength: maximumLineLength) { meaning -> Bool in
                    switch meaning {
                    case .line(let line):
                        let parsed: Result<SketchRecord, FormatError>
                        do throws(FormatError) { parsed = .success(try parser.parse(line)) } catch { parsed = .failure(error) }
                        switch parsed {
                        case .success(let record): return try body(.record(record, line, location))
                        case .failure(let error): return try body(.rejected(RejectedLine(location: location, reason: error.reason, bytes: Array(line))))
                        }
                    case let .rejected(reason, line):
                        return try body(.rejected(RejectedLine(location: location, reason: reason, bytes: Array(line))))
                    case let .sourceError(byteOffset, reason):
                        if byteOffset == 0 && reason.hasPrefix("cannot read input") { opened = false }
                        return try body(.rejected(.sourceError(file, byteOffset: byteOffset, reason: reason)))
                    }
                }
                if !goesOn { return opened }
            }
            progress(reader.consumedInputBytes)
        }
        return opened
    }

    /// One input file as the streaming engine reads it: its format, and the word of its records
    /// (`.bin`: `word` or the file name's word; stroke-3: `word` or the file name without
    /// `.npz`; NDJSON: unused, records carry their own).
    package struct EngineInput: Sendable {
        package var path: String
        package var format: DrawingFileFormat
        package var word: String
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
            let fileFormat: DrawingFileFormat
            if let format {
                fileFormat = format
            } else if !Self.isRegularFile(file) {
                fileFormat = .ndjson
            } else {
                do { fileFormat = try Self.detectFormat(path: file) } catch let error as FormatError {
                    if file.hasSuffix(".ndjson") || file.hasSuffix(".ndjson.gz") {
                        fileFormat = .ndjson
                    } else {
                        rejected.append(.sourceError(file, byteOffset: 0, reason: error.description))
                        continue
                    }
                } catch {
                    rejected.append(.sourceError(file, byteOffset: 0, reason: "\(error)"))
                    continue
                }
            }
            inputs.append(EngineInput(path: file, format: fileFormat, word: word(of: file, format: fileFormat)))
        }
        return (inputs, rejected)
    }

    /// The word of the records of `file` read as `format` (see ``EngineInput``).
    private func word(of file: String, format: DrawingFileFormat) -> String {
        switch format {
        case .ndjson: return ""
        case .csv: return word ?? ""
        case .svg:
            let parts = file.split(separator: "/")
            return word ?? (parts.count >= 2 ? String(parts[parts.count - 2]) : ".")
        case .bin: return word ?? GoogleBinaryFormat.word(forPath: file)
        case .stroke3:
            let name = file.split(separator: "/").last.map(String.init) ?? file
            return word ?? (name.hasSuffix(".npz") ? String(name.dropLast(4)) : name)
        }
    }

    /// File name endings a directory is searched for.
    public static let fileSuffixes = [".ndjson", ".ndjson.gz", ".bin", ".bin.gz", ".npz", ".csv", ".csv.gz"]

    /// File name endings a directory is searched for at every level below it (sketch datasets
    /// keep one directory per class).
    public static let recursiveFileSuffixes = [".svg"]

    /// Total size in bytes of the inputs as stored, or nil when one of them is stdin.
    public var inputByteCount: Int? {
        var total = 0
        for file in files {
            guard file != "-", let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int else { return nil }
            total += size
        }
        return total
    }

    /// The format of the file at `path` by content; throws `FormatError` when no rule matches.
    public static func detectFormat(path: String) throws -> DrawingFileFormat {
        let source: ByteSource
        do { source = try ByteSource(path: path) } catch {
            throw FormatError(.input, "cannot read \(path): \((error as? IOError)?.reason ?? "\(error)")")
        }
        var stream = BufferedByteStream(source: source)
        defer { stream.deallocate() }
        var bytes = [UInt8](repeating: 0, count: DrawingFileFormat.sniffLength)
        let count = (try? stream.read(into: &bytes, count: bytes.count)) ?? 0
        bytes.removeSubrange(count...)
        if count == 0 { return .ndjson }  // An empty input holds no records in any format.
        guard let format = DrawingFileFormat.detect(bytes) else {
            throw FormatError(.input, """
                cannot tell the format of \(path): not NDJSON (first non-blank byte is not '{' or no line parses), \
                not a Kaggle CSV (no Kaggle header line), not an SVG (no <svg element), not a Google .bin (its first records are not structurally consistent), \
                not a stroke-3 .npz (no zip magic); pass --format ndjson|bin|stroke3|csv|svg to read it as one
                """)
        }
        return format
    }

    /// Whether `file` (an input as a location names it) is read as sketch-rnn stroke-3: by
    /// `--format`, else by its content. Records of such a file keep their published split.
    public func isStroke3Input(_ file: String) -> Bool {
        inputFormat(file) == .stroke3
    }

    /// The format `file` (one of ``files``) is read as: the forced `format`, else the file's by
    /// content; nil for a stream or a file whose format cannot be told.
    public func inputFormat(_ file: String) -> DrawingFileFormat? {
        if let format { return format }
        return file == "-" ? nil : try? Self.detectFormat(path: file)
    }

    /// Reads every input in order; locations are the file and 1-based line (NDJSON), record
    /// (`.bin`) or position within the file (stroke-3, train then valid then test). A record
    /// `onRecord` refuses with `DrawingLimitError` is rejected with that reason and reading goes
    /// on; when no input at all can be opened, the read ends with an `FormatError` after reporting
    /// them.
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        for rejected in rejectedSources { try onRejected(rejected) }
        var finishedBytes = 0
        var opened = 0
        for (chunk, file) in files.enumerated() {
            var path = file
            var spooled: String?
            defer { if let spooled { unlink(spooled); TemporaryFiles.unregister(spooled) } }
            if format == nil && !Self.isRegularFile(file) {
                // A stream (stdin, a pipe, a FIFO) can be read once: keep a copy to detect and read.
                spooled = try Self.spool(file)
                path = spooled!
            }
            let fileFormat: DrawingFileFormat
            do {
                fileFormat = try format ?? Self.detectFormat(path: path)
            } catch let error as FormatError {
                // Content tells nothing: a file named like NDJSON is read as NDJSON, so each bad
                // line is quarantined with its own reason; any other file is quarantined whole.
                if file.hasSuffix(".ndjson") || file.hasSuffix(".ndjson.gz") {
                    fileFormat = .ndjson
                } else {
                    opened += 1
                    try onRejected(.sourceError(file, byteOffset: 0, reason: error.description))
                    continue
                }
            }
            if fileFormat == .bin && file == "-" && word == nil {
                throw FormatError(.input, "standard input holds a Google .bin, which has no file name to take its word from: pass --word WORD")
            }
            if fileFormat == .stroke3 && file == "-" { throw FormatError(.input, "stroke-3 .npz cannot be read from standard input; pass the file") }
            var consumed = 0
            let wasOpened = try readItems(of: path, as: fileFormat, label: file, chunk: chunk,
                                          progress: { consumed = $0; onProgress(finishedBytes + $0) }) { item in
                switch item {
                case let .record(record, line, location):
                    do { try onRecord(record, location) } catch let limit as DrawingLimitError {
                        try onRejected(RejectedLine(location: location, reason: limit.reason, bytes: Array(line)))
                    }
                case let .rejected(line):
                    try onRejected(line)
                }
                return true
            }
            if wasOpened { opened += 1 }
            finishedBytes += consumed
            onProgress(finishedBytes)
        }
        if !files.isEmpty && opened == 0 {
            throw FormatError(.input, "none of the \(files.count + rejectedSources.count) inputs could be read"
                + " (each is reported above with its reason); check the paths and their permissions")
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return path != "-" && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Copies the stream `file` (`-` for stdin) to a temporary file, so its format can be detected
    /// before it is read, and returns the copy's path.
    private static func spool(_ file: String) throws -> String {
        let path = TemporaryFileName.forWriting(NSTemporaryDirectory() + "sketchprep-stdin")
        TemporaryFiles.register(path)
        let writer = try AtomicFileWriter(path: path)
        let source: ByteSource
        do { source = try ByteSource(path: file) } catch { throw FormatError(.input, "cannot read \(file): \((error as? IOError)?.reason ?? "\(error)")") }
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
