import Foundation
import SketchCore
import SketchFormats
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchDataset

private let imageFolder = OutputFormat(rawValue: "imagefolder")!

/// The run record of an example encoded for an image folder (as the map side makes it).
private func record(keyID: String, word: String, split: SplitName, pixels: [UInt8], into bytes: inout [UInt8]) throws {
    let body = try ExampleBody.make(
        payload: .uint8(pixels, shape: [2, 2]), keyID: keyID, word: word, facts: RecordFacts(),
        encoding: ExampleBody.Encoding(format: imageFolder))
    bytes.removeAll()
    SortedExample(sortKey: 0, keyID: keyID, chunk: 0, ordinal: 0, word: word, split: split, body: body).serialize(into: &bytes)
}

private func sink(_ directory: String, examples: Int) throws -> any ExampleSink {
    try imageFolder.entry.open(
        .shard(directory: directory, split: .train, examples: examples, fileName: { $0 }),
        options: ShardingOptions(format: imageFolder, examplesPerShard: 10, seed: 1, split: .standard))
}

private func append(_ keyID: String, word: String, pixels: [UInt8], to sink: any ExampleSink) throws {
    var bytes: [UInt8] = []
    try record(keyID: keyID, word: word, split: .train, pixels: pixels, into: &bytes)
    try bytes.withUnsafeBytes { raw in
        var offset = 0
        try sink.append(try RunRecord.parse(raw, offset: &offset), label: 0)
    }
}

@Test func anImageFolderWritesEachExampleAsAPNGUnderItsSplitAndClassWithItsKeyEscaped() throws {
    let directory = try TestSupport.temporaryDirectory().path
    let folder = try sink(directory, examples: 2)
    try append("airplane/1.svg", word: "airplane", pixels: [0, 64, 128, 255], to: folder)
    try append("5201136883597312", word: "The Eiffel Tower", pixels: [255, 0, 0, 255], to: folder)
    let result = try folder.finish()
    #expect(result.entries.map(\.file) == ["train/airplane/airplane~2F1~2Esvg.png", "train/The Eiffel Tower/5201136883597312.png"])
    for (entry, pixels) in zip(result.entries, [[0, 64, 128, 255], [255, 0, 0, 255]] as [[UInt8]]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(entry.file)")))
        #expect(bytes == (try PNGEncoder.encode(GrayImage(width: 2, height: 2, pixels: pixels))))
        #expect(entry.bytes == bytes.count && entry.sha256 == SHA256Hasher.hash(bytes).hexString)
        #expect(entry.split == .train && entry.examples == 1)
    }
    #expect(OutputFormat.of(files: result.entries.map(\.file)) == imageFolder)
}

@Test func anImageFolderRefusesStrokeEncodingsAndFloatRastersWithTheReason() {
    #expect(imageFolder.entry.refusal(of: .strokeTensors)?.contains("set encode.kind: raster") == true)
    #expect(imageFolder.entry.refusal(of: .stroke3Rows)?.contains("no pixels") == true)
    #expect(imageFolder.entry.refusal(of: .rasters(uint8: false))?.contains("set encode.dtype: uint8") == true)
    #expect(imageFolder.entry.refusal(of: .rasters(uint8: true)) == nil)
    let namesFilesByWord = imageFolder.entry.namesFilesByWord
    #expect(namesFilesByWord)
}

@Test func aKeyIDWhoseFileNameWouldBeTooLongIsRefusedOnTheMapSide() {
    var bytes: [UInt8] = []
    let keyID = String(repeating: "/", count: 100)  // 300 bytes escaped
    #expect {
        try record(keyID: keyID, word: "cat", split: .train, pixels: [0, 0, 0, 0], into: &bytes)
    } throws: { "\($0)".contains("more than \(ImageFolderOutput.maximumFileNameBytes)") }
}

@Test func aKeyIDTwiceInOneClassOfASplitStopsTheReduceSide() throws {
    let folder = try sink(try TestSupport.temporaryDirectory().path, examples: 2)
    try append("7", word: "cat", pixels: [0, 0, 0, 0], to: folder)
    #expect {
        try append("7", word: "cat", pixels: [1, 1, 1, 1], to: folder)
    } throws: { "\($0)".contains("appears twice") }
}
