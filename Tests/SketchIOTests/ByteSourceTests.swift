import Foundation
import SketchIO
import SketchTestSupport
import Testing

@Test(arguments: [0, 1, 4095, 4096, 4097, 100_000])
func aByteSourceHashesTheStoredBytesWhateverTheNumberOfReadsTheyTake(size: Int) throws {
    let directory = try TestSupport.temporaryDirectory()
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) }
    let path = directory.appendingPathComponent("input").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    // Reads of 4 KiB: the first hashed in place, any later one on the hashing thread.
    let source = try ByteSource(path: path, readSize: 4096, hashing: true)
    var read: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1000)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 { break }
        read += buffer[..<count]
    }
    #expect(read == bytes)
    #expect(source.digest() == SHA256Hasher.hash(bytes).hexString)
}
