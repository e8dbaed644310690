/// The storage a batch reader makes a batch's bytes with: the bytes of its previous batch and an
/// eighth more (128 KiB for its first), so that each batch's bytes are allocated once instead of
/// grown entry by entry, doubling and copying from empty. One per batch reader; the storage is at
/// most 1.125 × ``InputChunkReader/batchByteTarget`` plus one entry.
package struct BatchByteReservation {
    private var expectedBytes = 1 << 17

    package init() {}

    /// Makes `batch`'s byte storage (call before its first entry).
    package func reserve(_ batch: inout RawLineBatch) {
        batch.bytes.reserveCapacity(expectedBytes)
    }

    /// Takes the size of `batch`, just filled, for the next batch.
    package mutating func filled(_ batch: RawLineBatch) {
        expectedBytes = batch.bytes.count + batch.bytes.count / 8
    }
}
