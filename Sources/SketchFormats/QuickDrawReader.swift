import Foundation
import SketchCore
import SketchIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// Streams Quick, Draw! records (raw or simplified NDJSON) from files, directories, gzip files
/// or stdin, in constant memory.
///
/// Inputs are expanded once at creation: a directory becomes its `*.ndjson` and `*.ndjson.gz`
/// files (not recursive) in byte-wise name order; `-` is standard input. Every input is read in
/// one pass, so pipes, FIFOs and `/dev/stdin` work like files. Gzip is recognised by
/// its magic bytes. Blank lines are skipped. Every other line becomes either a record
/// (`onRecord`) or a `RejectedLine` (`onRejected`) with the reason. A UTF-8 byte order mark at
/// the start of a file is skipped. Damaged input is one source error each
/// (`RejectedLine.sourceError`, counted apart from records): a gzip member with a bad CRC or
/// length keeps its records and reading goes on; a truncated or corrupt gzip tail keeps the
/// records decoded before it; a read error or an input that cannot be opened ends that input.
/// Nothing in the data stops a run; only errors thrown by the callbacks do.
public struct QuickDrawReader: Sendable {
    /// The files to read in order (`-` for stdin), after directory expansion.
    public let files: [String]
    /// Longest line accepted; longer lines are rejected with their first this-many bytes.
    public var maximumLineLength = DrawingLimits.maximumLineBytes
    /// Read only the first this-many non-blank lines of each input (`--limit`); nil: all.
    public var recordLimitPerInput: Int?
    /// Whether records keep their strokes' `t` arrays (they are validated either way).
    public var keepsTimestamps = true
    /// Whether `read` hashes each input's stored bytes as it streams them (for manifests of
    /// inputs that can be read only once, such as pipes).
    public var measuresSources = false

    /// Directory entries that cannot be read (dangling links, link loops, unreadable files,
    /// non-UTF-8 names); `read` hands each to `onRejected` as a source error
    /// (`RejectedLine.sourceError`, at `path:0`) before the first record.
    public let rejectedSources: [RejectedLine]
    /// Warnings for device files and FIFOs found in input directories and skipped.
    public let skippedSources: [String]

    /// Expands `inputs`; throws `FormatError` for a path that does not exist or a directory
    /// without NDJSON files. A path named explicitly is read whatever it is (a FIFO, `/dev/stdin`);
    /// in a directory only regular files are read (see ``DirectoryWalk``).
    public init(inputs: [String]) throws {
        let (files, listing) = try InputExpansion.expand(inputs, suffixes: [".ndjson", ".ndjson.gz"])
        self.files = files
        rejectedSources = listing.rejected
        skippedSources = listing.skipped
    }

    /// Total size in bytes of the inputs as stored (compressed size for gzip), or nil when one
    /// of them is stdin. Compare with the byte counts passed to `onProgress`.
    public var inputByteCount: Int? {
        var total = 0
        for file in files {
            guard file != "-", let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int
            else { return nil }
            total += size
        }
        return total
    }

    /// Reads every input in order.
    ///
    /// - Parameters:
    ///   - onRecord: called for each valid record with its location. When it throws
    ///     `DrawingLimitError` (a record over a processing bound, such as the resampling caps),
    ///     the line goes to `onRejected` with that reason instead, and reading goes on.
    ///   - onRejected: called for each unusable line, and for each source error (an input or
    ///     directory entry that cannot be opened, a read error, a damaged gzip member). When no
    ///     input at all can be opened, the read ends with an `FormatError` after reporting them.
    ///   - onProgress: called after each chunk with the stored bytes consumed so far over all inputs.
    /// - Returns: the size and SHA-256 of each input's stored bytes, measured while reading,
    ///   when ``measuresSources`` is set (empty otherwise).
    @discardableResult
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws -> [SourceDigest] {
        try readLines(
            parse: { parser, bytes throws(FormatError) in try parser.parse(bytes) },
            onRecord: { record, location in
                try onRecord(record, location)
                return true
            },
            onRejected: onRejected, onProgress: onProgress)
    }

    /// The first `limit` valid records of the inputs, in order; reading stops there.
    public func readFirst(_ limit: Int, onRejected: (RejectedLine) throws -> Void) throws -> [SketchRecord] {
        var records: [SketchRecord] = []
        guard limit > 0 else { return records }
        _ = try readLines(
            parse: { parser, bytes throws(FormatError) in try parser.parse(bytes) },
            onRecord: { record, _ in
                records.append(record)
                return records.count < limit
            },
            onRejected: onRejected, onProgress: { _ in })
        return records
    }

    /// Reads every input in order like `read(onRecord:onRejected:onProgress:)`, handing each
    /// record's strokes (points only, no timestamps) in flat storage that is reused from record
    /// to record; the record's own `drawing` is empty. For streams that only need the points.
    @discardableResult
    public func readFlat(
        onRecord: (SketchRecord, FlatStrokes, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws -> [SourceDigest] {
        var strokes = FlatStrokes()
        return try readLines(
            parse: { parser, bytes throws(FormatError) in try parser.parse(bytes, strokesInto: &strokes) },
            onRecord: { record, location in
                try onRecord(record, strokes, location)
                return true
            },
            onRejected: onRejected, onProgress: onProgress)
    }

    /// The reading loop of every entry point; `parse` turns one non-blank line into a record,
    /// and reading stops early when `onRecord` returns false.
    private func readLines(
        parse: (inout QuickDrawLineParser, UnsafeBufferPointer<UInt8>) throws(FormatError) -> SketchRecord,
        onRecord: (SketchRecord, SourceLocation) throws -> Bool,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void
    ) throws -> [SourceDigest] {
        for rejected in rejectedSources {
            try onRejected(.sourceError(rejected.location.file, byteOffset: 0, reason: rejected.reason))
        }
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        var finishedBytes = 0
        var digests: [SourceDigest] = []
        var openedAny = false
        files: for file in files {
            let source: ByteSource
            do {
                source = try ByteSource(path: file, hashing: measuresSources)
            } catch {
                let reason = (error as? IOError)?.reason ?? "\(error)"
                try onRejected(.sourceError(file, byteOffset: 0, reason: "cannot read input: \(reason)"))
                continue
            }
            openedAny = true
            var splitter = LineSplitter(source: source, maximumLineLength: maximumLineLength)
            defer { splitter.deallocate() }
            var lineNumber = 0
            var records = 0
            var reportedBytes = 0
            while records < recordLimitPerInput ?? Int.max, let piece = splitter.next() {
                lineNumber += 1
                let location = SourceLocation(file: file, line: lineNumber)
                switch piece {
                case .line(var bytes):
                    if lineNumber == 1 { bytes = Self.droppingByteOrderMark(bytes) }
                    if Self.isBlank(bytes) { continue }
                    records += 1
                    let record: SketchRecord
                    do {
                        record = try parse(&parser, bytes)
                    } catch {
                        try onRejected(RejectedLine(location: location, reason: error.reason, bytes: Array(bytes)))
                        continue
                    }
                    do {
                        guard try onRecord(record, location) else { break files }
                    } catch let limit as DrawingLimitError {
                        // The record parsed but is over a bound of its processing (e.g. resampling).
                        try onRejected(RejectedLine(location: location, reason: limit.reason, bytes: Array(bytes)))
                    }
                case .overlong(let prefix):
                    records += 1
                    try onRejected(RejectedLine(
                        location: location,
                        reason: "line longer than \(maximumLineLength) bytes (quarantined truncated to that length)",
                        bytes: prefix))
                case .failed(let reason, let partial):
                    if !partial.isEmpty { try onRejected(RejectedLine(location: location, reason: reason, bytes: partial)) }
                    try onRejected(.sourceError(file, byteOffset: source.consumedInputBytes, reason: reason))
                }
                if source.consumedInputBytes != reportedBytes {
                    reportedBytes = source.consumedInputBytes
                    onProgress(finishedBytes + reportedBytes)
                }
            }
            for damage in source.damage {
                try onRejected(.sourceError(file, byteOffset: damage.byteOffset, reason: damage.reason))
            }
            finishedBytes += source.consumedInputBytes
            if let digest = source.digest() { digests.append(SourceDigest(path: file, bytes: source.consumedInputBytes, sha256: digest)) }
        }
        guard openedAny || files.count + rejectedSources.count == 0 else {
            throw FormatError(.input, "none of the \(files.count + rejectedSources.count) inputs could be read"
                + " (each is reported above with its reason); check the paths and their permissions")
        }
        return digests
    }

    /// `bytes` without a leading UTF-8 byte order mark (`EF BB BF`), which some editors write
    /// at the start of a file.
    private static func droppingByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[3...])
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }
}

/// The size and SHA-256 of one input's stored (possibly compressed) bytes, measured in the same
/// pass that reads its records.
public struct SourceDigest: Sendable, Equatable {
    /// The input as listed in ``QuickDrawReader/files``.
    public var path: String
    /// Bytes read from it.
    public var bytes: Int
    /// SHA-256 of those bytes, lower-case hex.
    public var sha256: String
}

extension QuickDrawReader {
    /// Prints ``skippedSources`` as warnings on stderr, prefixed with `tool: `.
    public func printSkippedSources(tool: String) {
        DirectoryListing.printWarnings(skippedSources, tool: tool)
    }
}
