import Foundation
import SketchFormats
import SketchIO

/// One shard written by the reduce side as its examples stream past in dataset order: each
/// example's body (``ExampleBody``) is copied into the shard's file buffers with its label
/// (``LabelledRecord``); the files are hashed as they are written. The example count is known
/// before the first example (NPY headers hold it), from the reduce plan.
///
/// A file that already exists with exactly the new bytes is left untouched (``finish()`` counts it
/// as reused); anything else is replaced atomically.
package final class ShardStream {
    private let options: ShardingOptions
    private let split: SplitName
    private let examples: Int
    private let fileName: (String) -> String
    private let directory: String
    private var added = 0
    private var labelled: LabelledRecord
    /// NPY: `.x.npy`, `.y.npy`, `.keys.txt`; TFRecord: the one file.
    private var sinks: [HashedFileSink] = []
    private var firstShape: [UInt8] = []
    private var firstElement: BodyElement?
    /// WebDataset: scratch space for tar member names.
    private var memberName: [UInt8] = []

    /// A shard of `examples` examples of `split`, whose file with suffix `s` (`.x.npy`, `.tfrecord`, …)
    /// is `directory/fileName(s)`.
    package init(directory: String, options: ShardingOptions, split: SplitName, examples: Int, fileName: @escaping (String) -> String) {
        self.directory = directory
        self.options = options
        self.split = split
        self.examples = examples
        self.fileName = fileName
        labelled = LabelledRecord(labelFeature: options.tfrecordFeatures.label)
    }

    /// The file suffixes of a shard in `format`.
    package static func suffixes(_ format: ShardFormat) -> [String] {
        switch format {
        case .npy: return DatasetLayout.npyShardSuffixes
        case .tfrecord: return [DatasetLayout.tfrecordSuffix]
        case .webdataset: return [DatasetLayout.tarSuffix]
        }
    }

    private func path(_ suffix: String) -> String { "\(directory)/\(fileName(suffix))" }

    /// Adds the next example of the shard with `label`.
    package func add(_ record: RunRecord, label: Int32) throws {
        guard added < examples else {
            throw DatasetError("internal: shard of \(split.rawValue) receives more than its \(examples) examples")
        }
        if added == 0 { try open(record) }
        added += 1
        switch options.format {
        case .npy:
            let sameShape = firstShape.withUnsafeBytes { RunRecord.compareBytes($0, record.shapeBytes) == 0 }
            guard sameShape, record.element == firstElement else {
                throw DatasetError(
                    "example \(record.keyIDString) is \(record.element.dtype) \(record.shape), "
                        + "but NPY shards need every example to be \(firstElement!.dtype) \(firstShapeArray)")
            }
            sinks[0].buffer.append(contentsOf: record.body)
            sinks[1].buffer.appendLE(label)
            sinks[2].buffer.append(contentsOf: record.keyID)
            sinks[2].buffer.append(0x0A)
            for sink in sinks { try sink.flushIfFull() }
        case .tfrecord:
            labelled.appendTFRecord(body: record.body, bodyCRC: record.bodyCRC, flags: record.flags, label: label, to: &sinks[0].buffer)
            try sinks[0].flushIfFull()
        case .webdataset:
            try WebDatasetShard.appendSample(record, label: label, name: &memberName, to: &sinks[0].buffer)
            try sinks[0].flushIfFull()
        }
    }

    private var firstShapeArray: [Int] {
        firstShape.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: 4).map { Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
        }
    }

    private func open(_ first: RunRecord) throws {
        firstShape = Array(first.shapeBytes)
        firstElement = first.element
        switch options.format {
        case .npy:
            sinks = try Self.suffixes(.npy).map { try HashedFileSink(path: path($0)) }
            sinks[0].buffer += NPYFormat.header(dtype: first.element.dtype, shape: [examples] + first.shape)
            sinks[1].buffer += NPYFormat.header(dtype: .int32, shape: [examples])
        case .tfrecord, .webdataset:
            sinks = [try HashedFileSink(path: path(Self.suffixes(options.format)[0]))]
        }
    }

    /// Closes the shard's files: its manifest entries, and how many files were already complete.
    package func finish() throws -> (entries: [ShardFileEntry], reused: Int) {
        guard added == examples else { throw DatasetError("internal: shard of \(split.rawValue) got \(added) of its \(examples) examples") }
        if options.format == .webdataset {
            if sinks.isEmpty { sinks = [try HashedFileSink(path: path(DatasetLayout.tarSuffix))] }
            TarFraming.appendEnd(archiveBytes: sinks[0].size, to: &sinks[0].buffer)
        }
        var entries: [ShardFileEntry] = []
        var reused = 0
        for (suffix, sink) in zip(Self.suffixes(options.format), sinks) {
            let written = try sink.finish()
            if written.reused { reused += 1 }
            entries.append(
                ShardFileEntry(file: fileName(suffix), split: split, examples: examples, bytes: written.bytes, sha256: written.sha256))
        }
        return (entries, reused)
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

    init(path: String) throws {
        self.path = path
        writer = try AtomicFileWriter(path: path)
        buffer.reserveCapacity(Self.flushBytes + (64 << 10))
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
