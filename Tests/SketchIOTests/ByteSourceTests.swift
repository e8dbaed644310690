import Foundation
import SketchIO
import SketchTestSupport
import Testing

/// Reads of 4 KiB or 64 KiB after a first read of 4 KiB: hashed in place while they fit in one
/// read's size, then on the hashing thread; into a buffer smaller than a read (through the
/// source's own buffer) or at least as large (straight from the file), of the whole file or of a
/// byte range of it.
@Test(arguments: [0, 1, 4095, 4096, 4097, 65_537, 100_000, 200_000], [1000, 4096, 10_000, 65_536])
func aByteSourceHashesTheStoredBytesWhateverTheNumberOfReadsTheyTake(size: Int, bufferBytes: Int) throws {
    let directory = try TestSupport.temporaryDirectory()
    let whole = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) }
    let path = directory.appendingPathComponent("input").path
    try Data(whole).write(to: URL(fileURLWithPath: path))
    for range in [nil, size / 3..<(size - size / 5)] {
        let bytes = range.map { Array(whole[$0]) } ?? whole
        for readSize in [4096, 65_536] {
            let source = try ByteSource(path: path, readSize: readSize, hashing: true, range: range)
            var read: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: bufferBytes)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { break }
                read += buffer[..<count]
            }
            #expect(read == bytes, "read size \(readSize)")
            #expect(source.digest() == SHA256Hasher.hash(bytes).hexString, "read size \(readSize)")
            #expect(source.consumedInputBytes == bytes.count)
        }
    }
}
