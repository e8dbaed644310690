import Foundation
import SketchFormats
import SketchIO
import Testing

@testable import SketchDataset

@Suite("Official numpy_bitmap import")
struct NumpyBitmapImportTests {
    static func line(_ key: String) -> String {
        #"{"word":"cat","countrycode":"US","timestamp":"2017-03-01 20:00:00.00000 UTC","recognized":true,"key_id":"\#(key)","drawing":[[[0,10],[0,10]]]}"#
    }

    @Test func rowsAreKeyedByTheSimplifiedLineWithTheSameIndexAndShardedAsUInt8Images() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bitmap-import-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/bitmap", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(root)/simplified", withIntermediateDirectories: true)
        let pixels = (0..<3).flatMap { row in [UInt8](repeating: UInt8(row * 100), count: 784) }
        try writeAtomically(NPYWriter.encode(pixels, dtype: .uint8, shape: [3, 1, 784]), to: "\(root)/bitmap/cat.npy")
        try writeAtomically(Self.line("111") + "\n" + Self.line("222") + "\n", to: "\(root)/simplified/cat.ndjson")

        let manifest = try NumpyBitmapImport(
            bitmapFiles: ["\(root)/bitmap/cat.npy"], simplifiedSource: "\(root)/simplified", rows: 1..<10,
            sharding: ShardingOptions(format: .npy, examplesPerShard: 10, seed: 1, split: try DatasetSplit(train: 0, val: 0, test: 100)),
            outputDirectory: "\(root)/out"
        ).run()

        #expect(manifest.classes.map(\.word) == ["cat"])
        #expect(manifest.counts["test"]?.total == 2)
        #expect(manifest.records.read == 2 && manifest.records.isReconciled)
        let keys = try String(contentsOfFile: "\(root)/out/test-00000-of-00001.keys.txt", encoding: .utf8)
        #expect(Set(keys.split(separator: "\n").map(String.init)) == ["222", "cat/2"])
        let x = try NPYReader.read(path: "\(root)/out/test-00000-of-00001.x.npy")
        #expect(x.dtype == .uint8 && x.shape == [2, 28, 28])
    }

    @Test func aSimplifiedFileKeysTheRowsOfItsWordAsItsDirectoryDoes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bitmap-import-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/simplified", withIntermediateDirectories: true)
        try writeAtomically(NPYWriter.encode([UInt8](repeating: 7, count: 2 * 784), dtype: .uint8, shape: [2, 784]), to: "\(root)/cat.npy")
        try writeAtomically(Self.line("111") + "\n" + Self.line("222") + "\n", to: "\(root)/simplified/cat.ndjson")
        func keys(_ source: String) throws -> Set<String> {
            _ = try NumpyBitmapImport(
                bitmapFiles: ["\(root)/cat.npy"], simplifiedSource: source, rows: 0..<10,
                sharding: ShardingOptions(
                    format: .npy, examplesPerShard: 10, seed: 1, split: try DatasetSplit(train: 0, val: 0, test: 100)),
                outputDirectory: "\(root)/out"
            ).run()
            let text = try String(contentsOfFile: "\(root)/out/test-00000-of-00001.keys.txt", encoding: .utf8)
            return Set(text.split(separator: "\n").map(String.init))
        }
        #expect(try keys("\(root)/simplified/cat.ndjson") == ["111", "222"])
        #expect(try keys("\(root)/simplified") == ["111", "222"])
        try writeAtomically(Self.line("333") + "\n", to: "\(root)/simplified/dog.ndjson")
        #expect(throws: DatasetError.self) { try keys("\(root)/simplified/dog.ndjson") }  // no dog.npy to key
    }

    @Test func aFileThatIsNotA784PixelBitmapIsRejectedWithItsPath() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bitmap-import-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try writeAtomically(
            NPYWriter.encode([Float](repeating: 0, count: 6), dtype: .float32, shape: [2, 3]),
            to: "\(root)/dog.npy")
        let job = NumpyBitmapImport(
            bitmapFiles: ["\(root)/dog.npy"], simplifiedSource: nil, rows: 0..<10,
            sharding: ShardingOptions(format: .npy, examplesPerShard: 10, seed: 1, split: .standard),
            outputDirectory: "\(root)/out")
        #expect(throws: DatasetError.self) { try job.run() }
    }
}
