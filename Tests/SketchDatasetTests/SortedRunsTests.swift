import Foundation
import SketchFormats
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchDataset

private func example(
    _ key: String, chunk: UInt32 = 0, ordinal: UInt64 = 0, split: SplitName = .train,
    body: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
) -> SortedExample {
    SortedExample(
        sortKey: SortKey.of(keyID: key, seed: 7), keyID: key, chunk: chunk, ordinal: ordinal,
        word: "w\(key.count % 3)", split: split, body: ExampleBody(element: .uint8, shape: [2, 4], bytes: body))
}

/// Every record of `merge` as (key_id, ordinal).
/// The runs each chunk close hands over (``SortedRunWriter/closeChunk(then:)``), in the order the
/// closes ran, on whichever thread.
private final class ClosedChunks: @unchecked Sendable {
    private let lock = NSLock()
    private var closed: [[SortedRunWriter.MeasuredRun]] = []

    var chunks: [[SortedRunWriter.MeasuredRun]] { lock.withLock { closed } }

    func add(_ runs: [SortedRunWriter.MeasuredRun]) { lock.withLock { closed.append(runs) } }
}

private func drain(_ merge: inout RunMerge) throws -> [(String, UInt64)] {
    var out: [(String, UInt64)] = []
    while let record = try merge.next() { out.append((record.keyIDString, record.ordinal)) }
    return out
}

@Test func aRunRecordReadsBackEveryFieldOfTheExample() throws {
    let original = example("ünïcode", chunk: 3, ordinal: 9, split: .test, body: Array(0..<200))
    var bytes: [UInt8] = []
    original.serialize(into: &bytes)
    try bytes.withUnsafeBytes { raw in
        var offset = 0
        let record = try RunRecord.parse(raw, offset: &offset)
        #expect(offset == bytes.count)
        #expect(record.sortKey == original.sortKey && record.chunk == 3 && record.ordinal == 9 && record.split == .test)
        #expect(record.keyIDString == "ünïcode" && record.wordString == original.word && record.shape == [2, 4])
        #expect(Array(record.body) == original.body && record.bodyCRC == CRC32C.checksum(original.body))
    }
}

@Test func spilledRunsMergeIntoTheSameOrderAsOneSort() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let examples = (0..<3000).map {
        example("k\($0 % 2500)", chunk: UInt32($0 / 1000), ordinal: UInt64($0), body: [UInt8](repeating: 1, count: 600))
    }
    let writer = try SortedRunWriter(directory: "\(directory)/runs", budgetBytes: 1)  // a run per MiB
    for e in examples { try writer.add(RunFragment([e])) }
    let runs = try writer.finish()
    #expect(runs.count > 1)
    var merge = try RunMerge(runs: runs)
    let merged = try drain(&merge)
    #expect(merged.map(\.0) == examples.sorted(by: SortedExample.precedes).map(\.keyID))
    // Repeated key_ids keep their input order (chunk, then position).
    #expect(merged.filter { $0.0 == "k7" }.map(\.1) == [7, 2507])
}

@Test func unsortedFragmentsMergeIntoTheSameOrderAsOneSort() throws {
    let examples = (0..<2000).map { example("k\($0 % 700)", chunk: UInt32($0 / 1000), ordinal: UInt64($0)) }
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 64 << 20)
    var start = 0
    for size in [1, 2, 3, 500, 7, 1000, 487] {
        var fragment = RunFragment()
        for e in examples[start..<(start + size)] { fragment.append(e) }
        try writer.add(fragment)
        start += size
    }
    #expect(start == examples.count)
    var merge = try RunMerge(runs: try writer.finish())
    let merged = try drain(&merge)
    let expected = examples.sorted(by: SortedExample.precedes)
    #expect(merged.map(\.0) == expected.map(\.keyID) && merged.map(\.1) == expected.map(\.ordinal))
}

@Test func aRunFileHasTheSameBytesHoweverItsExamplesAreCutIntoFragments() throws {
    let examples = (0..<1500).map {
        example("k\($0 % 600)", chunk: UInt32($0 / 500), ordinal: UInt64($0), body: [UInt8](repeating: UInt8($0 % 251), count: 400))
    }
    var files: [[UInt8]] = []
    for size in [1, 64, 280, 1500] {
        let directory = try TestSupport.temporaryDirectory().path
        let writer = try SortedRunWriter(directory: directory, budgetBytes: 64 << 20)
        for start in stride(from: 0, to: examples.count, by: size) {
            try writer.add(RunFragment(Array(examples[start..<min(start + size, examples.count)])))
        }
        let runs = try writer.finish()
        #expect(runs.count == 1)
        files.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: runs[0]))))
    }
    #expect(files.count == 4 && Set(files).count == 1)
}

@Test func runsWrittenInTheBackgroundAreTheRunsOfHalfTheBudgetWrittenInPlace() throws {
    let examples = (0..<6000).map { example("k\($0)", ordinal: UInt64($0), body: [UInt8](repeating: UInt8($0 % 251), count: 700)) }
    var written: [(runs: [[UInt8]], measured: [SortedRunWriter.MeasuredRun])] = []
    for (budget, background) in [(1 << 20, false), (2 << 20, true)] {
        let directory = try TestSupport.temporaryDirectory().path
        let writer = try SortedRunWriter(
            directory: directory, budgetBytes: budget, measuresRuns: true, writesInBackground: background)
        for start in stride(from: 0, to: examples.count, by: 250) {
            try writer.add(RunFragment(Array(examples[start..<(start + 250)])))
        }
        let closed = ClosedChunks()
        let paths = try writer.closeChunk(then: closed.add)
        let runs = try writer.finish()
        let measured = closed.chunks.flatMap { $0 }
        #expect(closed.chunks.count == 1 && paths == runs && measured.map(\.path) == runs)
        written.append((try runs.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }, measured))
    }
    #expect(written[0].runs.count > 2 && written[0].runs == written[1].runs)
    for (bytes, run) in zip(written[1].runs, written[1].measured) {
        #expect(run.bytes == bytes.count && run.sha256 == SHA256Hasher.hash(bytes).hexString)
    }
}

@Test func aFragmentThatFillsTheBudgetIsWrittenAsARunAtOnce() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1 << 20)
    try writer.add(RunFragment([example("small")]))
    #expect(writer.runs.isEmpty)
    try writer.add(RunFragment([example("large", body: [UInt8](repeating: 3, count: 1 << 20))]))
    #expect(writer.runs.count == 2)  // the small one before it, then the large one on its own
    try writer.add(RunFragment([example("next")]))
    #expect(writer.runs.count == 2)
    #expect(try writer.finish().count == 3)
}

@Test(arguments: [false, true])
func aChunksRunsAreMeasuredAsWrittenToTheirFilesBytes(inTheBackground: Bool) throws {
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1, measuresRuns: true, writesInBackground: inTheBackground)
    for i in 0..<3000 { try writer.add(RunFragment([example("k\(i)", body: [UInt8](repeating: UInt8(i % 251), count: 600))])) }
    let closed = ClosedChunks()
    let firstPaths = try writer.closeChunk(then: closed.add)
    try writer.add(RunFragment([example("last")]))
    let secondPaths = try writer.closeChunk(then: closed.add)
    #expect(try writer.finish() == firstPaths + secondPaths)
    #expect(closed.chunks.count == 2)
    let (first, second) = (closed.chunks[0], closed.chunks[1])
    #expect(first.count > 1 && second.count == 1)
    #expect(first.map(\.path) == firstPaths && second.map(\.path) == secondPaths)
    #expect((first + second).map(\.path) == writer.runs)
    for run in first + second {
        let onDisk = try InputFile.measure(run.path)
        #expect(run.bytes == onDisk.bytes && run.sha256 == onDisk.sha256)
    }
}

@Test func aChunkClosedInTheBackgroundIsHandedOverWhileTheCallerGoesOnAndItsErrorReachesTheNextCall() throws {
    struct Refused: Error {}
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1 << 20, measuresRuns: true, writesInBackground: true)
    try writer.add(RunFragment([example("first")]))
    let released = DispatchSemaphore(value: 0)
    let closed = ClosedChunks()
    // The hand-over waits for the caller's next fragment: it runs beside the caller, not before
    // closeChunk returns (written in place, it would throw there after the timeout).
    _ = try writer.closeChunk { runs in
        _ = released.wait(timeout: .now() + 10)
        closed.add(runs)
        throw Refused()
    }
    try writer.add(RunFragment([example("second")]))
    #expect(closed.chunks.isEmpty)
    released.signal()
    #expect(throws: Refused.self) { try writer.finish() }
    #expect(closed.chunks.map { $0.count } == [1])
}

@Test func aKeyRangeReadsExactlyTheRecordsWhoseSortKeysFallInIt() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let examples = (0..<4000).map { example("k\($0)", body: [UInt8](repeating: 2, count: 300)) }
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1)
    for e in examples { try writer.add(RunFragment([e])) }
    let runs = try writer.finish()
    let keys = SortKey.keys(ofBuckets: 300...555)
    var merge = try RunMerge(runs: runs, keys: keys)
    let expected = examples.sorted(by: SortedExample.precedes).filter { keys.contains($0.sortKey) }.map(\.keyID)
    #expect(try drain(&merge).map(\.0) == expected)
    #expect(!expected.isEmpty)
}

@Test func aTruncatedOrAlteredRunFileIsAnErrorNamingIt() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 1)
    for i in 0..<100 { try writer.add(RunFragment([example("k\(i)")])) }
    let runs = try writer.finish()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: runs[0])))
    try Data(bytes.dropLast(5)).write(to: URL(fileURLWithPath: runs[0]))
    let truncated = #expect(throws: DatasetError.self) {
        var merge = try RunMerge(runs: runs)
        _ = try drain(&merge)
    }
    #expect(truncated?.description.contains(runs[0]) == true)
    #expect(truncated?.kind == .runFile)
    var altered = bytes
    altered[altered.count - RunFile.trailerBytes - 3] ^= 0x40  // a body byte: only the block's CRC-32C notices
    try Data(altered).write(to: URL(fileURLWithPath: runs[0]))
    let crc = #expect(throws: DatasetError.self) {
        var again = try RunMerge(runs: runs)
        _ = try drain(&again)
    }
    #expect(crc?.description.contains("CRC-32C") == true)
    #expect(crc?.kind == .runFile)
    #expect(throws: DatasetError.self) { try DatasetFileValidation.runFileExampleCount(altered) }
    #expect(try DatasetFileValidation.runFileExampleCount(bytes) == 100)
}

/// The blocks of a run file written by `SortedRunWriter`: the magic, each block (header and
/// payload) and the trailer.
private func blocks(of bytes: [UInt8]) -> (blocks: [[UInt8]], trailer: [UInt8]) {
    var offset = RunFile.magic.count
    var blocks: [[UInt8]] = []
    while offset < bytes.count - RunFile.trailerBytes {
        let length = bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        blocks.append(Array(bytes[offset..<offset + RunFile.headerBytes + length]))
        offset += RunFile.headerBytes + length
    }
    return (blocks, Array(bytes[offset...]))
}

@Test("a run file whose blocks are reordered, repeated or missing, each with a valid CRC, is refused by the merge and by verify's check")
func reorderedRepeatedOrMissingBlocksAreRefused() throws {
    let directory = try TestSupport.temporaryDirectory().path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let writer = try SortedRunWriter(directory: directory, budgetBytes: 64 << 20)
    for i in 0..<12 { try writer.add(RunFragment([example("k\(i)", body: [UInt8](repeating: UInt8(i), count: 100_000))])) }
    let runs = try writer.finish()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: runs[0])))
    let (parts, trailer) = blocks(of: bytes)
    #expect(parts.count >= 3)
    var reordered = parts
    reordered.swapAt(0, 1)
    let variants: [(String, [[UInt8]])] = [
        ("reordered", reordered), ("repeated", parts + [parts[parts.count - 1]]), ("missing", Array(parts.dropFirst())),
        ("last missing", Array(parts.dropLast())),
    ]
    for (name, variant) in variants {
        let altered = RunFile.magic + variant.joined() + trailer
        #expect(throws: DatasetError.self, "\(name)") { try DatasetFileValidation.runFileExampleCount(altered) }
        try Data(altered).write(to: URL(fileURLWithPath: runs[0]))
        #expect(throws: DatasetError.self, "\(name)") {
            var merge = try RunMerge(runs: runs)
            _ = try drain(&merge)
        }
    }
    #expect(try DatasetFileValidation.runFileExampleCount(bytes) == 12)
}
