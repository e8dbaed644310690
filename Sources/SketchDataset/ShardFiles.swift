import Foundation
import SketchFormats
import SketchIO

/// The files of one shard as a sink (``ExampleSink``) writes them: one ``HashedFileSink`` per
/// suffix, opened at the first example (or at the end, for a format whose empty shard still has
/// bytes), the example count checked against the reduce plan's (NPY headers hold it before the
/// first example), and the manifest entries made at the end.
///
/// A file that already exists with exactly the new bytes is left untouched (``finish()`` counts it
/// as reused); anything else is replaced atomically.
package final class ShardFiles {
    let directory: String
    let split: SplitName
    /// Examples the shard holds.
    let examples: Int
    let fileName: (String) -> String
    let suffixes: [String]
    private var added = 0
    /// One per suffix once ``open()`` ran.
    var sinks: [HashedFileSink] = []

    /// The files of a shard of `examples` examples of `split`, the one with suffix `s` being
    /// `directory/fileName(s)`.
    init(directory: String, split: SplitName, examples: Int, fileName: @escaping (String) -> String, suffixes: [String]) {
        (self.directory, self.split, self.examples, self.fileName, self.suffixes) = (directory, split, examples, fileName, suffixes)
    }

    /// Counts the next example; throws when the shard would hold more than ``examples``.
    func count(_ record: RunRecord) throws {
        guard added < examples else {
            throw DatasetError(.invariant, "internal: shard of \(split.rawValue) receives more than its \(examples) examples")
        }
        added += 1
    }

    /// Opens the files.
    func open() throws {
        sinks = try suffixes.map { try HashedFileSink(path: "\(directory)/\(fileName($0))") }
    }

    /// Commits the files opened: their manifest entries, and how many were already complete.
    func finish() throws -> SinkResult {
        guard added == examples else {
            throw DatasetError(.invariant, "internal: shard of \(split.rawValue) got \(added) of its \(examples) examples")
        }
        var result = SinkResult(entries: [], reused: 0)
        for (suffix, sink) in zip(suffixes, sinks) {
            let written = try sink.finish()
            if written.reused { result.reused += 1 }
            result.entries.append(
                ShardFileEntry(file: fileName(suffix), split: split, examples: examples, bytes: written.bytes, sha256: written.sha256))
        }
        return result
    }
}

/// A file written through a buffer that is hashed (SHA-256) as it is flushed, and committed
/// atomically unless the same bytes are already there.
final class HashedFileSink {
    let path: String
    /// Bytes not yet flushed; callers append here and call ``flushIfFull()``.
    var buffer: [UInt8] = []
    private let writer: AtomicFileWriter
    private var hasher = SHA256Hasher()
    private var total = 0
    static let flushBytes = 1 << 20

    /// Bytes written so far, flushed or not.
    var size: Int { total + buffer.count }

    /// A sink writing `path`, its buffer sized for `capacity` bytes before a flush; `syncs: false`
    /// for a file of a staging area synced as a whole (`AtomicFileWriter(path:spoolsStream:syncsBeforeRename:)`).
    init(path: String, syncs: Bool = true, capacity: Int = flushBytes + (64 << 10)) throws {
        self.path = path
        writer = try AtomicFileWriter(path: path, syncsBeforeRename: syncs)
        buffer.reserveCapacity(capacity)
    }

    func flushIfFull() throws {
        if buffer.count >= Self.flushBytes { try flush() }
    }

    private func flush() throws {
        hasher.update(buffer)
        try buffer.withUnsafeBytes { try writer.write(contiguous: $0) }
        total += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and commits the file (or drops it when `path` already holds exactly these bytes).
    func finish() throws -> (bytes: Int, sha256: String, reused: Bool) {
        try flush()
        let sha256 = hasher.finalize().hexString
        if let status = try? FileSystem.linkStatus(path), status.isRegular, Int(status.size) == total,
            let existing = try? InputFile.measure(path), existing.sha256 == sha256
        {
            return (total, sha256, true)  // the writer's temporary file is removed with it
        }
        try writer.commit()
        return (total, sha256, false)
    }
}
