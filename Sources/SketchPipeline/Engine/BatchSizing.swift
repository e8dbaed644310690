/// How many records (lines, image files) one batch of parallel work holds when each record's
/// output is large: the one rule every stream that renders or decodes rasters uses, so that the
/// batches in flight hold at most about `payloadBytes` of output each, whatever the raster size,
/// and memory does not grow with the number of records (docs/limits.md, "Rasters at the largest
/// size").
package enum BatchSizing {
    /// Output bytes one batch may hold (one record at least).
    package static let payloadBytes = 16 << 20

    /// `maximum` records, fewer when `bytesPerRecord` of output each would pass `payloadBytes`;
    /// at least 1.
    package static func records(bytesPerRecord: Int, maximum: Int) -> Int {
        max(1, min(maximum, payloadBytes / max(1, bytesPerRecord)))
    }

    /// Batches of `batchBytes` of output each the engine holds in flight where `full` batches of
    /// `payloadBytes` would be held: up to four times as many when a batch holds a quarter of
    /// `payloadBytes` or less, never more output than `full` full batches. Small batches (16
    /// images of 256² pixels hold 1 MiB) vary in cost more than the ordered hand-over tolerates:
    /// a worker that is `full` batches ahead of the one the consumer needs next waits, and more
    /// batches in flight let it go on.
    package static func inFlight(_ full: Int, batchBytes: Int) -> Int {
        full * min(4, max(1, payloadBytes / max(1, batchBytes)))
    }
}
