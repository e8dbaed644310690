import SketchIO

/// Emptied ``ReadBatch``es whose arrays keep their storage, handed from the caller's side of a
/// `sketchprep.read` (the group it has copied) back to the workers that fill the next ones
/// (``ReadStage``), so that a long read stops allocating, growing and freeing its arrays batch
/// after batch. It needs no cap of its own: a batch is made only when the pool has none, so the
/// pool never holds more batches than the read held at once.
package final class ReadBatchPool: Sendable {
    private let spares = LockedValue<[ReadBatch]>([])

    package init() {}

    /// An empty batch: a spare one when there is one.
    package func take() -> ReadBatch { spares.withLock { $0.popLast() } ?? ReadBatch() }

    /// Keeps the batches of `group`, emptied, for ``take()``, and leaves `group` empty. The batches
    /// are moved out of the group, so that their arrays, referenced once, keep their storage
    /// (emptying a shared array would allocate a new one, as a copy of the group would make them).
    package func give(_ group: inout ReadBatchGroup) {
        var batches = group.removeBatches()
        for index in batches.indices { batches[index].removeAll() }
        spares.withLock { $0 += batches }
    }
}
