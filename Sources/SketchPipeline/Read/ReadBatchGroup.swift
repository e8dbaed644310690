/// Consecutive ``ReadBatch``es of one `sketchprep.read` handed to the caller as one batch
/// (the Python package's `DrawingReader`): the caller's arrays hold the batches' arrays one after another, each batch's
/// offsets moved past the points, strokes and text of the batches before it, and a t plane for
/// every point once one batch has times (0 for the points of the others). Joining batches this way
/// costs nothing until the caller's one copy (``copy(into:)``).
package struct ReadBatchGroup: Sendable {
    package private(set) var batches: [ReadBatch] = []
    /// Drawings and rejected lines in every batch.
    package private(set) var recordCount: Int64 = 0

    package init() {}

    package var isEmpty: Bool { batches.allSatisfy(\.isEmpty) }

    /// The batches held, moved out: the group is empty afterwards.
    package mutating func removeBatches() -> [ReadBatch] {
        recordCount = 0
        var batches: [ReadBatch] = []
        swap(&batches, &self.batches)
        return batches
    }

    /// Adds `batch` after the batches held.
    package mutating func append(_ batch: ReadBatch) {
        recordCount += batch.recordCount
        batches.append(batch)
    }

    /// The element count of each of the caller's arrays, in `ReadBatch.Field` order.
    package var counts: [Int] {
        var counts = Array(repeating: 0, count: ReadBatch.Field.allCases.count)
        for offsets in [ReadBatch.Field.strokeOffsets, .drawingOffsets, .textOffsets, .rejectedOffsets] {
            counts[offsets.rawValue] = 1  // the leading 0, once
        }
        for batch in batches {
            counts[ReadBatch.Field.x.rawValue] += batch.xs.count
            counts[ReadBatch.Field.y.rawValue] += batch.ys.count
            counts[ReadBatch.Field.strokeOffsets.rawValue] += batch.strokeOffsets.count - 1
            counts[ReadBatch.Field.drawingOffsets.rawValue] += batch.drawingOffsets.count - 1
            counts[ReadBatch.Field.recognized.rawValue] += batch.recognized.count
            counts[ReadBatch.Field.timed.rawValue] += batch.timed.count
            counts[ReadBatch.Field.text.rawValue] += batch.text.count
            counts[ReadBatch.Field.textOffsets.rawValue] += batch.textOffsets.count - 1
            counts[ReadBatch.Field.rejected.rawValue] += batch.rejected.count
            counts[ReadBatch.Field.rejectedOffsets.rawValue] += batch.rejectedOffsets.count - 1
        }
        if batches.contains(where: \.hasTimes) { counts[ReadBatch.Field.t.rawValue] = counts[ReadBatch.Field.x.rawValue] }
        return counts
    }

    /// Copies the caller's arrays into the buffers at their `ReadBatch.Field` numbers in
    /// `destinations`, sized from ``counts`` (a NULL one is skipped).
    package func copy(into destinations: UnsafePointer<UnsafeMutableRawPointer?>) {
        func values<Element>(_ array: KeyPath<ReadBatch, [Element]>, _ field: ReadBatch.Field) {
            guard let destination = destinations[field.rawValue] else { return }
            var at = destination.assumingMemoryBound(to: Element.self)
            for batch in batches {
                batch[keyPath: array].withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { at.update(from: base, count: source.count) }
                    at += source.count
                }
            }
        }
        // Offsets after the leading 0, each batch's moved past what the batches before it hold.
        func offsets(_ array: KeyPath<ReadBatch, [Int64]>, _ field: ReadBatch.Field, past size: (ReadBatch) -> Int) {
            guard let destination = destinations[field.rawValue] else { return }
            var at = destination.assumingMemoryBound(to: Int64.self)
            at.pointee = 0
            at += 1
            var base: Int64 = 0
            for batch in batches {
                for offset in batch[keyPath: array].dropFirst() {
                    at.pointee = offset + base
                    at += 1
                }
                base += Int64(size(batch))
            }
        }
        values(\.xs, .x)
        values(\.ys, .y)
        if let destination = destinations[ReadBatch.Field.t.rawValue] {
            var at = destination.assumingMemoryBound(to: Double.self)
            for batch in batches {
                if batch.hasTimes {
                    batch.ts.withUnsafeBufferPointer { source in
                        if let base = source.baseAddress { at.update(from: base, count: source.count) }
                    }
                } else {
                    at.update(repeating: 0, count: batch.xs.count)
                }
                at += batch.xs.count
            }
        }
        offsets(\.strokeOffsets, .strokeOffsets) { $0.xs.count }
        offsets(\.drawingOffsets, .drawingOffsets) { $0.strokeOffsets.count - 1 }
        values(\.recognized, .recognized)
        values(\.timed, .timed)
        values(\.text, .text)
        offsets(\.textOffsets, .textOffsets) { $0.text.count }
        values(\.rejected, .rejected)
        offsets(\.rejectedOffsets, .rejectedOffsets) { $0.rejected.count }
    }
}
