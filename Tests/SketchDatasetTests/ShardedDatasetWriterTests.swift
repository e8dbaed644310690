import Foundation
import SketchFormats
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchDataset

private func examples(_ n: Int) -> [DatasetExample] {
    (0..<n).map { (i: Int) -> DatasetExample in
        let values: [Float] = (0..<6).map { Float(i * 6 + $0) }
        let keyID = String(4_000_000_000_000_000 + i * 104_729)
        return DatasetExample(keyID: keyID, label: Int32(i % 3), payload: .float32(values, shape: [2, 3]))
    }
}

private func write(_ items: [DatasetExample], to dir: String, format: OutputFormat) throws -> ShardWriteResult {
    let options = ShardingOptions(format: format, examplesPerShard: 40, seed: 7, split: .standard)
    let writer = ShardedDatasetWriter(directory: dir, options: options)
    for example in items { try writer.add(example) }
    return try writer.finish()
}

@Test func npyShardsHoldEveryExampleOnceWithMatchingLabelsAndKeys() throws {
    let dir = try TestSupport.temporaryDirectory().path
    let items = examples(200)
    let result = try write(items, to: dir, format: .npy)
    var seen: [String: DatasetExample] = [:]
    for entry in result.files where entry.file.hasSuffix(".x.npy") {
        let stem = String(entry.file.dropLast(".x.npy".count))
        let x = try NPYReader.read(path: "\(dir)/\(entry.file)")
        let y = try NPYReader.read(path: "\(dir)/\(stem).y.npy").int32s()
        let keys = try String(contentsOfFile: "\(dir)/\(stem).keys.txt", encoding: .utf8).split(separator: "\n")
        #expect(x.shape == [keys.count, 2, 3] && y.count == keys.count)
        let values = x.floats()
        for (row, key) in keys.enumerated() {
            let payload = TensorPayload.float32(Array(values[(row * 6)..<(row * 6 + 6)]), shape: [2, 3])
            seen[String(key)] = DatasetExample(keyID: String(key), label: y[row], payload: payload)
        }
    }
    #expect(seen.count == items.count)
    for item in items { #expect(seen[item.keyID] == item) }
    #expect(result.counts.values.flatMap(\.values).reduce(0, +) == 200)
}

@Test func rerunWithSameInputReusesEveryShardAndGivesIdenticalHashes() throws {
    let dir = try TestSupport.temporaryDirectory().path
    let first = try write(examples(200), to: dir, format: .tfrecord)
    #expect(first.reusedFiles == 0)
    let second = try write(examples(200), to: dir, format: .tfrecord)
    #expect(second.files == first.files)
    #expect(second.reusedFiles == first.files.count)
}

@Test func rerunReplacesACorruptedShard() throws {
    let dir = try TestSupport.temporaryDirectory().path
    let first = try write(examples(200), to: dir, format: .npy)
    let victim = "\(dir)/\(first.files[0].file)"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: victim))
    let second = try write(examples(200), to: dir, format: .npy)
    #expect(second.reusedFiles == first.files.count - 1)
    let restored = [UInt8](FileManager.default.contents(atPath: victim)!)
    #expect(SHA256Hasher.hash(restored).hexString == first.files[0].sha256)
}

@Test func staleShardsFromALargerRunAreRemoved() throws {
    let dir = try TestSupport.temporaryDirectory().path
    _ = try write(examples(300), to: dir, format: .tfrecord)
    let second = try write(examples(50), to: dir, format: .tfrecord)
    let onDisk = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(onDisk == second.files.map(\.file).sorted())
    #expect(!second.removedFiles.isEmpty)
}

@Test func npyShardsRejectMixedShapesNamingTheExample() throws {
    let dir = try TestSupport.temporaryDirectory().path
    let writer = ShardedDatasetWriter(
        directory: dir,
        options: ShardingOptions(
            format: .npy, examplesPerShard: 10, seed: 1, split: .standard))
    try writer.add(DatasetExample(keyID: "1", label: 0, payload: .float32([0, 0, 0], shape: [1, 3])))
    #expect(throws: DatasetError.self) {
        try writer.add(DatasetExample(keyID: "2", label: 0, payload: .float32([0, 0, 0, 0, 0, 0], shape: [2, 3])))
    }
}

@Test func shardFileNamesFollowTheContract() {
    #expect(ShardNaming.standard.fileName(split: .train, index: 3, count: 12, suffix: ".x.npy") == "train-00003-of-00012.x.npy")
    #expect(
        ShardNaming.tensorflowTutorial.fileName(split: .train, index: 3, count: 10, suffix: ".tfrecord")
            == "training.tfrecord-00003-of-00010")
    #expect(
        ShardNaming.tensorflowTutorial.fileName(split: .val, index: 0, count: 10, suffix: ".tfrecord") == "eval.tfrecord-00000-of-00010")
    #expect(ShardNaming.isShardFileName("eval.tfrecord-00000-of-00010"))
    #expect(!ShardNaming.isShardFileName("training.tfrecord.classes"))
    #expect(ShardNaming.isShardFileName("val-00000-of-00001.tfrecord"))
    #expect(ShardNaming.isShardFileName("test-00001-of-00002.keys.txt"))
    #expect(!ShardNaming.isShardFileName("manifest.json"))
    #expect(!ShardNaming.isShardFileName("train-1-of-2.x.npy"))
}
