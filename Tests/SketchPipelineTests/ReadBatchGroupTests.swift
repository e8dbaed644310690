import SketchCore
import SketchFormats
import Testing

@testable import SketchPipeline

/// `sketchprep.read`'s batches joined without a copy (`ReadBatchGroup`) give the caller exactly the
/// arrays of one batch holding the same drawings and rejections, and batches reused from the pool
/// (`ReadBatchPool`) come back empty, with the storage of their arrays.
@Suite struct ReadBatchGroupTests {
    private func record(_ number: Int, timed: Bool) -> SketchRecord {
        let strokes = (0...(number % 3)).map { stroke in
            let count = 1 + (number + stroke) % 4
            let x = (0..<count).map { Double(number * 10 + stroke + $0) }
            return Stroke(x: x, y: x.map { $0 + 0.5 }, t: timed ? x.map { $0 * 3 } : [])
        }
        return SketchRecord(
            word: "word\(number)", countryCode: number % 2 == 0 ? "US" : "", timestamp: "t\(number)", recognized: number % 3 == 0,
            keyID: "\(number)", drawing: Drawing(strokes: strokes), kind: timed ? .raw : .simplified)
    }

    /// The flat storage a reader hands for `record`'s strokes, with their times.
    private func points(_ record: SketchRecord) -> FlatStrokes {
        var flat = FlatStrokes()
        flat.replaceContents(with: record.drawing, keepingTimes: true)
        return flat
    }

    private func rejection(_ number: Int) -> RejectedLine {
        RejectedLine(location: SourceLocation(file: "f\(number).ndjson", line: number), reason: "reason \(number)", bytes: [])
    }

    /// The caller's arrays of `group` as bytes, field by field.
    private func arrays(_ group: ReadBatchGroup) -> [[UInt8]] {
        let counts = group.counts
        let widths: [ReadBatch.Field: Int] = [
            .x: 8, .y: 8, .t: 8, .strokeOffsets: 8, .drawingOffsets: 8, .recognized: 1, .timed: 1, .text: 1, .textOffsets: 8,
            .rejected: 1, .rejectedOffsets: 8,
        ]
        let buffers = ReadBatch.Field.allCases.map {
            UnsafeMutableRawBufferPointer.allocate(byteCount: counts[$0.rawValue] * widths[$0]!, alignment: 8)
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        for buffer in buffers { buffer.initializeMemory(as: UInt8.self, repeating: 0xEE) }
        let pointers: [UnsafeMutableRawPointer?] = buffers.map { $0.isEmpty ? nil : $0.baseAddress }
        pointers.withUnsafeBufferPointer { group.copy(into: $0.baseAddress!) }
        return buffers.map { Array($0) }
    }

    @Test(arguments: [[3, 1, 4], [1, 1, 1, 1, 1], [0, 5, 0, 2], [7]])
    func joinedBatchesGiveTheArraysOfOneBatchHoldingTheSameDrawings(sizes: [Int]) {
        var whole = ReadBatch()
        var group = ReadBatchGroup()
        var number = 0
        for (index, size) in sizes.enumerated() {
            var part = ReadBatch()
            for _ in 0..<size {
                // Timed and untimed drawings mixed within and across batches; the second batch has no times.
                let drawing = record(number, timed: index != 1 && number % 2 == 0)
                whole.append(drawing, points: points(drawing))
                part.append(drawing, points: points(drawing))
                number += 1
            }
            part.reject(rejection(index))
            whole.reject(rejection(index))
            group.append(part)
        }
        var single = ReadBatchGroup()
        single.append(whole)
        #expect(group.recordCount == Int64(number + sizes.count))  // a rejected line per batch
        #expect(group.counts == single.counts)
        #expect(arrays(group) == arrays(single))
    }

    @Test("a batch's times are 0 before its first timed drawing and for strokes without; a drawing is timed when all its strokes are")
    func aBatchHoldsTimesOnceADrawingHasThemAndMarksTheDrawingsWhoseStrokesAllHaveThem() {
        func drawing(_ times: [[Double]?]) -> SketchRecord {
            let strokes = times.enumerated().map { index, t in
                let x = (0..<(t?.count ?? 2)).map { Double(index * 10 + $0) }
                return Stroke(x: x, y: x.map { $0 + 1 }, t: t ?? [])
            }
            return SketchRecord(
                word: "w", countryCode: "US", timestamp: "t", recognized: true, keyID: "1", drawing: Drawing(strokes: strokes),
                kind: .raw)
        }
        let untimed = drawing([nil, nil])
        let timed = drawing([[5, 6, 7]])
        let partly = drawing([[8], nil, [9, 10]])
        var batch = ReadBatch()
        batch.append(untimed, points: points(untimed))
        #expect(!batch.hasTimes && batch.ts.isEmpty)
        for record in [timed, partly, untimed] { batch.append(record, points: points(record)) }
        #expect(batch.hasTimes && batch.ts == [0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 9, 10, 0, 0, 0, 0])
        #expect(batch.xs == [0, 1, 10, 11, 0, 1, 2, 0, 10, 11, 20, 21, 0, 1, 10, 11])
        #expect(batch.strokeOffsets == [0, 2, 4, 7, 8, 10, 12, 14, 16] && batch.drawingOffsets == [0, 2, 3, 6, 8])
        #expect(batch.timed == [0, 1, 0, 0])
    }

    @Test func batchesGivenBackToThePoolComeBackEmptyAndTheGroupIsLeftEmpty() {
        let pool = ReadBatchPool()
        var group = ReadBatchGroup()
        for number in 0..<3 {
            var batch = pool.take()
            batch.append(record(number, timed: true), points: points(record(number, timed: true)))
            batch.reject(rejection(number))
            group.append(batch)
        }
        pool.give(&group)
        #expect(group.batches.isEmpty && group.recordCount == 0)
        for _ in 0..<3 {
            let batch = pool.take()
            #expect(batch.isEmpty && batch.xs.isEmpty && batch.ts.isEmpty && !batch.hasTimes)
            #expect(batch.strokeOffsets == [0] && batch.textOffsets == [0] && batch.rejectedOffsets == [0])
        }
    }

    @Test func batchesGivenBackToThePoolKeepTheStorageOfTheirArrays() {
        let pool = ReadBatchPool()
        var group = ReadBatchGroup()
        var storage: [UnsafePointer<Double>?] = []
        for number in 0..<4 {
            var batch = pool.take()
            for drawing in 0..<50 {
                let drawing = record(number * 50 + drawing, timed: true)
                batch.append(drawing, points: points(drawing))
            }
            storage.append(batch.xs.withUnsafeBufferPointer { $0.baseAddress })
            group.append(batch)
        }
        pool.give(&group)
        var reused: [UnsafePointer<Double>?] = []
        for _ in 0..<4 {
            var batch = pool.take()
            batch.append(record(1, timed: true), points: points(record(1, timed: true)))
            reused.append(batch.xs.withUnsafeBufferPointer { $0.baseAddress })
        }
        #expect(Set(reused) == Set(storage))
    }

    @Test func thePoolKeepsSpareBatchesOnlyUpToItsByteLimit() {
        func filled(_ pool: ReadBatchPool) -> ReadBatch {
            var batch = pool.take()
            for drawing in 0..<50 { batch.append(record(drawing, timed: true), points: points(record(drawing, timed: true))) }
            return batch
        }
        // The storage one emptied batch keeps, as the pool measures it (emptied in place).
        let probe = ReadBatchPool()
        var probed = ReadBatchGroup()
        probed.append(filled(probe))
        probe.give(&probed)
        let one = probe.take().capacityBytes
        let pool = ReadBatchPool(maximumSpareBytes: 2 * one + one / 2)
        var group = ReadBatchGroup()
        for _ in 0..<3 { group.append(filled(pool)) }
        let storage = group.batches.map { batch in batch.xs.withUnsafeBufferPointer { $0.baseAddress } }
        pool.give(&group)
        // Two batches' storage fits the limit; the third batch is let go, so a third take makes a new one.
        let taken = (0..<3).map { _ in pool.take() }
        #expect(taken.filter { $0.xs.capacity > 0 }.count == 2)
        #expect(Set(taken.prefix(2).map { batch in batch.xs.withUnsafeBufferPointer { $0.baseAddress } }).isSubset(of: Set(storage)))
    }
}
