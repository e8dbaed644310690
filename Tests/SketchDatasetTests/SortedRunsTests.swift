import Foundation
import SketchDataset
import SketchFormats
import SketchTestSupport
import Testing

private func example(_ key: String, chunk: UInt32 = 0, ordinal: UInt64 = 0, split: SplitName? = nil,
                     payload: TensorPayload = .float32([1, 2, 3], shape: [1, 3])) -> SortedExample {
    SortedExample(sortKey: SortKey.of(keyID: key, seed: 7), keyID: key, chunk: chunk, ordinal: ordinal,
                  word: "w\(key.count % 3)", split: split, payload: payload)
}

@Test func sortedExampleSerializationRoundTrips() throws {
    let examples = [example("a", chunk: 3, ordinal: 9, split: .test),
                    example("ünïcode", payload: .uint8([0, 255, 7, 1], shape: [2, 2]))]
    var bytes: [UInt8] = []
    for e in examples { e.serialize(into: &bytes) }
    var offset = 0
    let decoded = try bytes.withUnsafeBytes { raw in
        [try SortedExample.deserialize(raw, offset: &offset), try SortedExample.deserialize(raw, offset: &offset)]
    }
    #expect(decoded == examples)
    #expect(offset == bytes.count)
    var short = 0
    #expect(try bytes.dropLast().withUnsafeBytes { try SortedExample.deserialize(UnsafeRawBufferPointer(rebasing: $0[0..<10]), offset: &short) } == nil)
}

@Test func spilledRunsMergeIntoTheSameOrderAsOneSort() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let examples = (0..<3000).map { example("k\($0 % 2500)", chunk: UInt32($0 / 1000), ordinal: UInt64($0)) }
    let writer = try SortedRunWriter(directory: "\(directory)/runs", budgetBytes: 1)  // a run per MiB
    for e in examples { try writer.add(e) }
    let (runs, memory) = writer.finishInMemory()
    var merge = try SortedRunMerge(runs: runs, memory: memory)
    var merged: [SortedExample] = []
    while let next = try merge.next() { merged.append(next) }
    #expect(merged == examples.sorted(by: SortedExample.precedes))
    // Repeated key_ids keep their input order (chunk, then position).
    let repeats = merged.filter { $0.keyID == "k7" }
    #expect(repeats.map(\.ordinal) == [7, 2507])
}

@Test func aTruncatedRunFileIsAnErrorNamingIt() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1)
    for i in 0..<100 { try writer.add(example("k\(i)")) }
    let runs = try writer.finish()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: runs[0])))
    try Data(bytes.dropLast(5)).write(to: URL(fileURLWithPath: runs[0]))
    var merge = try SortedRunMerge(runs: runs)
    #expect(throws: DatasetError.self) { while try merge.next() != nil {} }
}
