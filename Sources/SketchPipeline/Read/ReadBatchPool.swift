import Foundation
import SketchIO

/// Emptied ``ReadBatch``es whose arrays keep their storage, handed from the caller's side of a
/// `sketchprep.read` (the group it has copied) back to the workers that fill the next ones
/// (``ReadStage``), so that a long read stops allocating, growing and freeing its arrays batch
/// after batch. A batch is made only when the pool has none, so the pool never holds more batches
/// than the reads using it held at once, and it keeps spare storage up to ``maximumSpareBytes``,
/// letting go of the batches past it.
package final class ReadBatchPool: Sendable {
    /// The most storage the spare batches keep, in bytes of their arrays' capacity.
    package let maximumSpareBytes: Int
    private let spares = LockedValue<(batches: [ReadBatch], bytes: Int)>(([], 0))

    /// The pool of every `sketchprep.read` of the process: a read made after another (one per
    /// category file, say) starts with the arrays the earlier one grew. It keeps at most 64 MiB.
    /// A fork waits for the pool's lock and the child starts with it free, whatever the parent's
    /// reading threads were doing (a `pthread_atfork` handler, registered with the pool).
    package static let shared: ReadBatchPool = {
        pthread_atfork(
            { ReadBatchPool.shared.spares.lockForFork() }, { ReadBatchPool.shared.spares.unlockAfterFork() },
            { ReadBatchPool.shared.spares.unlockAfterFork() })
        return ReadBatchPool(maximumSpareBytes: 64 << 20)
    }()

    package init(maximumSpareBytes: Int = .max) {
        self.maximumSpareBytes = maximumSpareBytes
    }

    /// An empty batch: a spare one when there is one.
    package func take() -> ReadBatch {
        spares.withLock { spares in
            guard let batch = spares.batches.popLast() else { return nil }
            spares.bytes -= batch.capacityBytes
            return batch
        } ?? ReadBatch()
    }

    /// Keeps the batches of `group`, emptied, for ``take()`` while the spare batches keep at most
    /// ``maximumSpareBytes``, and leaves `group` empty. The batches are moved out of the group, so
    /// that their arrays, referenced once, keep their storage (emptying a shared array would
    /// allocate a new one, as a copy of the group would make them).
    package func give(_ group: inout ReadBatchGroup) {
        var batches = group.removeBatches()
        for index in batches.indices { batches[index].removeAll() }
        spares.withLock { spares in
            for batch in batches {
                let bytes = batch.capacityBytes
                guard spares.bytes + bytes <= maximumSpareBytes else { continue }
                spares.bytes += bytes
                spares.batches.append(batch)
            }
        }
    }
}
