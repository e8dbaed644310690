import Testing

@testable import SketchPipeline

@Suite("Batch sizing")
struct BatchSizingTests {
    @Test func recordsKeepABatchWithinThePayloadAndHoldOneAtLeast() {
        #expect(BatchSizing.records(bytesPerRecord: 256 * 256, maximum: 16) == 16)
        #expect(BatchSizing.records(bytesPerRecord: 8192 * 8192, maximum: 16) == 1)
        #expect(BatchSizing.records(bytesPerRecord: 2048 * 2048, maximum: 1024) == 4)
    }

    @Test func smallBatchesGoUpToFourTimesAsManyInFlightWithinTheFullBatchesOutput() {
        let payload = BatchSizing.payloadBytes
        for full in [2, 4, 6, 34] {
            // Full batches, and batches of one record larger than the payload: as many as before.
            #expect(BatchSizing.inFlight(full, batchBytes: payload) == full)
            #expect(BatchSizing.inFlight(full, batchBytes: 4 * payload) == full)
            #expect(BatchSizing.inFlight(full, batchBytes: payload / 2) == 2 * full)
            // 16 images of 256² pixels (1 MiB) and anything smaller: four times as many, no more.
            #expect(BatchSizing.inFlight(full, batchBytes: 16 * 256 * 256) == 4 * full)
            #expect(BatchSizing.inFlight(full, batchBytes: 0) == 4 * full)
            for batchBytes in [1, 4096, 1 << 20, 3 << 20, 5 << 20, 9 << 20, payload, payload + 1] {
                let count = BatchSizing.inFlight(full, batchBytes: batchBytes)
                #expect(count >= full && count <= 4 * full)
                #expect(count == full || count * batchBytes <= full * payload)
            }
        }
    }
}
