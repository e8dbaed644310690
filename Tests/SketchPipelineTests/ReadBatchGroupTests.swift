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
                if number % 4 == 3 {
                    var flat = FlatStrokes()
                    flat.replaceContents(with: drawing.drawing)
                    whole.append(drawing, points: flat)
                    part.append(drawing, points: flat)
                } else {
                    whole.append(drawing)
                    part.append(drawing)
                }
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

    @Test func batchesGivenBackToThePoolComeBackEmptyAndTheGroupIsLeftEmpty() {
        let pool = ReadBatchPool()
        var group = ReadBatchGroup()
        for number in 0..<3 {
            var batch = pool.take()
            batch.append(record(number, timed: true))
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
            for drawing in 0..<50 { batch.append(record(number * 50 + drawing, timed: true)) }
            storage.append(batch.xs.withUnsafeBufferPointer { $0.baseAddress })
            group.append(batch)
        }
        pool.give(&group)
        var reused: [UnsafePointer<Double>?] = []
        for _ in 0..<4 {
            var batch = pool.take()
            batch.append(record(1, timed: true))
            reused.append(batch.xs.withUnsafeBufferPointer { $0.baseAddress })
        }
        #expect(Set(reused) == Set(storage))
    }
}
