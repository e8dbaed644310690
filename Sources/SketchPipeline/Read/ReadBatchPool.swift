import SketchIO

/// Emptied ``ReadBatch``es whose arrays keep their storage, handed from the caller's side of a
/// `sketchprep.read` (the group it has copied) back to the workers that fill the next ones
/// (``ReadStage``), so that a long read stops allocating, growing and freeing its arrays batch
/// after batch. Holds at most `capacity` batches; more are freed.
package final class ReadBatchPool: Sendable {
    private let capacity: Int
    private let spares = LockedValue<[ReadBatch]>([])

    package init(capacity: Int) { self.capacity = capacity }

    /// An empty batch: a spare one when there is one.
    package func take() -> ReadBatch { spares.withLock { $0.popLast() } ?? ReadBatch() }

    /// Keeps the batches of `group`, emptied, for ``take()`` while there is room. Each batch is
    /// moved out of the group before it is emptied, so that its arrays, referenced once, keep their
    /// storage (emptying a shared array would allocate a new one).
    package func give(_ group: consuming ReadBatchGroup) {
        var batches = group.removeBatches()
        var emptied: [ReadBatch] = []
        while emptied.count < capacity, var batch = batches.popLast() {
            batch.removeAll()
            emptied.append(batch)
        }
        spares.withLock { $0 += emptied.prefix(capacity - $0.count) }
    }
}
