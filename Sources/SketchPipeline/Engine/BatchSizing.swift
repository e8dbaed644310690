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
}
