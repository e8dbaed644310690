import Foundation
import SketchCore

/// A user error about the inputs themselves (missing path, unreadable directory).
public struct InputError: Error, CustomStringConvertible, Sendable {
    /// The message, naming the path.
    public var description: String

    /// Creates an error with `description`.
    public init(_ description: String) { self.description = description }
}

/// Streams Quick, Draw! records (raw or simplified NDJSON) from files, directories, gzip files
/// or stdin, in constant memory.
///
/// Inputs are expanded once at creation: a directory becomes its `*.ndjson` and `*.ndjson.gz`
/// files (not recursive) in byte-wise name order; `-` is standard input. Gzip is recognised by
/// its magic bytes. Blank lines are skipped. Every other line becomes either a record
/// (`onRecord`) or a `RejectedLine` (`onRejected`) with the reason; a failing input (truncated or
/// corrupt gzip, read error) rejects its unfinished line and the reader moves on to the next
/// input. Nothing in the data stops a run; only errors thrown by the callbacks do.
public struct QuickDrawReader: Sendable {
    /// The files to read in order (`-` for stdin), after directory expansion.
    public let files: [String]
    /// Longest line accepted; longer lines are rejected with their first this-many bytes.
    public var maximumLineLength = 64 << 20
    /// Whether records keep their strokes' `t` arrays (they are validated either way).
    public var keepsTimestamps = true

    /// Expands `inputs`; throws `InputError` for a path that does not exist or a directory
    /// without NDJSON files.
    public init(inputs: [String]) throws {
        var files: [String] = []
        let fileManager = FileManager.default
        for input in inputs {
            if input == "-" {
                files.append(input)
                continue
            }
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw InputError("input not found: \(input)")
            }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try fileManager.contentsOfDirectory(atPath: input)
                } catch {
                    throw InputError("cannot list directory \(input): \(error.localizedDescription)")
                }
                let selected = names.filter { $0.hasSuffix(".ndjson") || $0.hasSuffix(".ndjson.gz") }
                    .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                guard !selected.isEmpty else { throw InputError("no *.ndjson or *.ndjson.gz files in \(input)") }
                let directory = input.hasSuffix("/") ? String(input.dropLast()) : input
                files += selected.map { "\(directory)/\($0)" }
            } else {
                files.append(input)
            }
        }
        self.files = files
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

    /// The inputs cut into chunks of at most `linesPerChunk` lines (and about
    /// `maximumChunkBytes` bytes; a longer single line makes a chunk of its own) of one file each,
    /// in input order, for parsing on other threads. Reading happens as the sequence is iterated;
    /// an input that cannot be opened or fails midway gives rejections, never an error.
    public func chunks(linesPerChunk: Int = 1024, maximumChunkBytes: Int = 8 << 20) -> LineChunks {
        LineChunks(reader: self, linesPerChunk: linesPerChunk, maximumChunkBytes: maximumChunkBytes)
    }

    /// Reads every input in order.
    ///
    /// - Parameters:
    ///   - onRecord: called for each valid record with its location.
    ///   - onRejected: called for each unusable line (and for each input that cannot be opened).
    ///   - onProgress: called after each chunk with the stored bytes consumed so far over all inputs.
    public func read(
        onRecord: (SketchRecord, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        for chunk in chunks() {
            try chunk.parse(with: &parser, onRecord: onRecord, onRejected: onRejected)
            onProgress(chunk.consumedInputBytes)
        }
    }

    /// Reads every input in order like `read(onRecord:onRejected:onProgress:)`, handing each
    /// record's strokes (points only, no timestamps) in flat storage that is reused from record
    /// to record; the record's own `drawing` is empty. For streams that only need the points.
    public func readFlat(
        onRecord: (SketchRecord, FlatStrokes, SourceLocation) throws -> Void,
        onRejected: (RejectedLine) throws -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws {
        var parser = QuickDrawLineParser(keepsTimestamps: keepsTimestamps)
        var strokes = FlatStrokes()
        for chunk in chunks() {
            try chunk.parseFlat(with: &parser, strokes: &strokes, onRecord: onRecord, onRejected: onRejected)
            onProgress(chunk.consumedInputBytes)
        }
    }
}
