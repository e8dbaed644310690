import Foundation
import SketchTestSupport
import Testing

@testable import SketchFormats

@Test func npyHeaderIsByteIdenticalToNumpySave() {
    // numpy.save(np.zeros((3, 75, 3), np.float32)): header dict, 21-digit growth room, 64-byte alignment.
    let header = NPYFormat.header(dtype: .float32, shape: [3, 75, 3])
    let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 75, 3), }"
    let expected =
        NPYFormat.magic + [1, 0, 0x76, 0x00] + Array(dict.utf8)
        + [UInt8](repeating: 0x20, count: 128 - 10 - dict.utf8.count - 1) + [0x0A]
    #expect(header == expected)
}

@Test func npyHeaderAlignsDataTo64BytesForEveryShape() {
    for (dtype, shape) in [(NPYDType.int32, [7]), (.uint8, [0, 28, 28]), (.float32, []), (.float32, [123_456_789, 75, 3])] {
        let header = NPYFormat.header(dtype: dtype, shape: shape)
        #expect(header.count % 64 == 0)
        #expect(header.last == 0x0A)
    }
    #expect(String(decoding: NPYFormat.header(dtype: .int32, shape: [7]), as: UTF8.self).contains("'shape': (7,)"))
}

@Test func npyStreamingWriterPatchesRowCountAndRoundTrips() throws {
    let dir = try TestSupport.temporaryDirectory().path
    let path = dir + "/a.npy"
    let writer = try NPYWriter(path: path, dtype: .float32, itemShape: [2, 3])
    try writer.append([Float](repeating: 1.5, count: 6))
    try writer.append((0..<12).map { Float($0) })
    #expect(!FileManager.default.fileExists(atPath: path))
    try writer.commit()
    let array = try NPYReader.read(path: path)
    #expect(array.shape == [3, 2, 3])
    #expect(array.floats() == [Float](repeating: 1.5, count: 6) + (0..<12).map { Float($0) })
    let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
    #expect(bytes == NPYWriter.encode(array.floats(), dtype: .float32, shape: [3, 2, 3]))
}

@Test func npyReaderRoundTripsInt32AndUInt8() throws {
    let labels: [Int32] = [0, -1, 171, Int32.max]
    let parsedLabels = try NPYReader.parse(NPYWriter.encode(labels, dtype: .int32, shape: [4]))
    #expect(parsedLabels.int32s() == labels)
    let pixels: [UInt8] = [0, 255, 7, 9]
    let parsedPixels = try NPYReader.parse(NPYWriter.encode(pixels, dtype: .uint8, shape: [2, 2]))
    #expect(parsedPixels.shape == [2, 2])
    #expect(parsedPixels.data == pixels)
}

@Test func npyReaderRejectsTruncatedDataNamingTheFile() {
    var bytes = NPYWriter.encode([Float](repeating: 0, count: 6), dtype: .float32, shape: [2, 3])
    bytes.removeLast(4)
    #expect(throws: FormatError.self) { try NPYReader.parse(bytes, path: "cut.npy") }
    do { _ = try NPYReader.parse(bytes, path: "cut.npy") } catch {
        #expect("\(error)".hasPrefix("cut.npy: data is 20 bytes"))
    }
}

@Test func npyReaderRejectsAShapeWhoseSizeOverflows() {
    var bytes = NPYWriter.encode([Float](repeating: 0, count: 6), dtype: .float32, shape: [2, 3])
    let shape = Array("(2, 3)".utf8)
    let longer = Array("(9223372036854775807, 3)".utf8)
    guard let at = (0..<(128 - shape.count)).first(where: { Array(bytes[$0..<($0 + shape.count)]) == shape }) else {
        Issue.record("no shape in the header")
        return
    }
    // Same header length: the longer shape takes the place of as many padding spaces before the newline.
    bytes.replaceSubrange(at..<(at + shape.count), with: longer)
    bytes.removeSubrange((128 + longer.count - shape.count - 1 - (longer.count - shape.count))..<(128 + longer.count - shape.count - 1))
    #expect(bytes[127] == UInt8(ascii: "\n"))
    do {
        _ = try NPYReader.parse(bytes, path: "huge.npy")
        Issue.record("a shape of 2^63 rows parsed")
    } catch {
        #expect("\(error)" == "huge.npy: shape [9223372036854775807, 3] of float32 is too large", "got: \(error)")
    }
}
