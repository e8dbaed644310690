import Foundation
import Testing

@testable import SketchFormats

@Test func tfrecordFrameHasLengthCRCDataCRC() {
    let data: [UInt8] = Array("hello".utf8)
    let framed = TFRecordWriter.frame(data)
    #expect(framed.count == 8 + 4 + 5 + 4)
    #expect(Array(framed[0..<8]) == [5, 0, 0, 0, 0, 0, 0, 0])
    func le32(_ s: ArraySlice<UInt8>) -> UInt32 { s.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    #expect(le32(framed[8..<12]) == CRC32C.masked(CRC32C.checksum([5, 0, 0, 0, 0, 0, 0, 0])))
    #expect(Array(framed[12..<17]) == data)
    #expect(le32(framed[17..<21]) == CRC32C.masked(CRC32C.checksum(data)))
}

@Test func tfExampleEncodesPackedFloatsAndInt64sInKeyOrder() {
    let example = TFExample(features: [
        "shape": .int64s([1, 3]),
        "ink": .floats([1.0]),
    ])
    // Example{features{feature{key:"ink" value{float_list{value:[1.0] packed}}}
    //                  feature{key:"shape" value{int64_list{value:[1,3] packed}}}}}
    let inkEntry: [UInt8] = [0x0A, 3] + Array("ink".utf8) + [0x12, 8, 0x12, 6, 0x0A, 4, 0x00, 0x00, 0x80, 0x3F]
    let shapeEntry: [UInt8] = [0x0A, 5] + Array("shape".utf8) + [0x12, 6, 0x1A, 4, 0x0A, 2, 1, 3]
    let features: [UInt8] = [0x0A, UInt8(inkEntry.count)] + inkEntry + [0x0A, UInt8(shapeEntry.count)] + shapeEntry
    #expect(example.serialized() == [0x0A, UInt8(features.count)] + features)
}

@Test func tfExampleWritesNegativeInt64AsTenByteVarintAndOmitsEmptyLists() {
    let negative = TFExample(features: ["k": .int64s([-1])]).serialized()
    #expect(negative.suffix(12) == [0x0A, 10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    let empty = TFExample(features: ["k": .floats([])]).serialized()
    #expect(empty.suffix(2) == [0x12, 0x00])
}

@Test func tfExampleWritesBytesListValues() {
    let example = TFExample(features: ["b": .bytes([[7, 8]])]).serialized()
    #expect(example.suffix(6) == [0x0A, 4, 0x0A, 2, 7, 8])
}

@Test func tfrecordWriterStreamsFramedRecordsAndAppearsOnlyOnCommit() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tfr-\(UUID().uuidString).tfrecord").path
    let writer = try TFRecordWriter(path: path)
    try writer.write(record: [1, 2, 3])
    try writer.write(record: [])
    #expect(!FileManager.default.fileExists(atPath: path))
    try writer.commit()
    #expect(writer.count == 2)
    let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
    #expect(bytes == TFRecordWriter.frame([1, 2, 3]) + TFRecordWriter.frame([]))
}
