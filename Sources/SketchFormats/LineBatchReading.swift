/// What the engine's reading thread pulls batches from: one input chunk read as
/// ``RawLineBatch``es of raw entries, cut by its format's plug-in (`InputFormatPlugin.batchReader`).
package protocol LineBatchReading: AnyObject {
    /// The next batch, or nil at the end of the chunk.
    func nextBatch() -> RawLineBatch?
    /// Stored bytes consumed so far.
    var consumedInputBytes: Int { get }
    /// SHA-256 of the stored bytes (when hashing), after the last batch.
    func digest() -> String?
}
