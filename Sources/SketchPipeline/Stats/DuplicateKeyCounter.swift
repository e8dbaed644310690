import Foundation
import SketchDataset
import SketchIO

/// Exact duplicate counting of key_ids in bounded memory: keys are spilled to disk, split into
/// `partitions` files by FNV-1a 64 of the key (the split hash), and counted one partition at a
/// time, so memory holds one partition's distinct keys (about 1/64 of all keys), never all of them.
///
/// Each worker writes through its own `KeySpill`; `count(directory:workers:)` reads partition p of
/// every worker together. Keys are stored length-prefixed, so any key_id bytes are safe.
package enum DuplicateKeyCounter {
    /// Partition files per worker.
    package static let partitions = 64

    /// Records whose key_id occurred before (`records`) and distinct key_ids seen more than once (`keys`).
    package struct Counts: Equatable, Sendable {
        package var records = 0
        package var keys = 0
    }

    /// Counts duplicates over the spill files of `workers` workers in `directory`.
    package static func count(directory: String, workers: Int) throws -> Counts {
        var counts = Counts()
        for partition in 0..<partitions {
            var seen: [String: Int] = [:]
            for worker in 0..<workers {
                let path = KeySpill.path(directory: directory, worker: worker, partition: partition)
                guard FileSystem.exists(path) else { continue }
                let data: Data
                do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                    throw PipelineError(.spill, "cannot read key spill file \(path): \(error.localizedDescription)")
                }
                try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                    var offset = 0
                    while offset < bytes.count {
                        guard offset + 4 <= bytes.count else {
                            throw PipelineError(.spill, "key spill file \(path) is truncated at byte \(offset)")
                        }
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                        offset += 4
                        guard offset + length <= bytes.count else {
                            throw PipelineError(.spill, "key spill file \(path) is truncated at byte \(offset)")
                        }
                        let key = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
                        seen[key, default: 0] += 1
                        offset += length
                    }
                }
            }
            for occurrences in seen.values where occurrences > 1 {
                counts.records += occurrences - 1
                counts.keys += 1
            }
        }
        return counts
    }
}

/// One worker's key spill: buffers keys per partition and appends them to
/// `<directory>/keys-w<worker>-p<partition>` when a buffer passes 32 KiB (2 MiB per worker at most).
package final class KeySpill {
    private let directory: String
    private let worker: Int
    private var buffers: [[UInt8]]
    private static let flushThreshold = 32 << 10

    /// A spill for `worker` in `directory` (which must exist).
    package init(directory: String, worker: Int) {
        self.directory = directory
        self.worker = worker
        buffers = Array(repeating: [], count: DuplicateKeyCounter.partitions)
    }

    /// The file of one worker's partition.
    static func path(directory: String, worker: Int, partition: Int) -> String {
        "\(directory)/keys-w\(worker)-p\(partition)"
    }

    /// Records one key_id.
    package func add(_ keyID: String) throws {
        let partition = Int(FNV1a64.hash(keyID) % UInt64(DuplicateKeyCounter.partitions))
        let utf8 = Array(keyID.utf8)
        withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { buffers[partition].append(contentsOf: $0) }
        buffers[partition].append(contentsOf: utf8)
        if buffers[partition].count >= Self.flushThreshold { try flush(partition) }
    }

    /// Writes every buffered key.
    package func finish() throws {
        for partition in buffers.indices where !buffers[partition].isEmpty { try flush(partition) }
    }

    private func flush(_ partition: Int) throws {
        let path = Self.path(directory: directory, worker: worker, partition: partition)
        try appendToFile(buffers[partition], path: path)
        buffers[partition].removeAll(keepingCapacity: true)
    }
}
