import Foundation
import SketchIO
import SketchTestSupport
import Testing

@Suite struct InputFileTests {
    @Test("InputFile.readAll refuses an endless stream past its cap instead of filling memory")
    func readAllCapsStreams() {
        #expect(throws: IOError.self) { try InputFile.readAll("/dev/zero", maximumBytes: 1 << 20) }
        #expect(throws: IOError.self) { try InputFile.readAll("/dev/zero") }
    }

    @Test("readAll and measure return every byte and its SHA-256 for sizes around their read buffers")
    func wholeFilesAroundBufferSizes() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for size in [0, 1, 4_700, 65_535, 65_536, 65_537, (1 << 20) + 3] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
            let path = directory.appendingPathComponent("f\(size)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try InputFile.readAll(path) == bytes, "\(size)")
            let measured = try InputFile.measure(path)
            #expect(measured.bytes == size && measured.sha256 == SHA256Hasher.hash(bytes).hexString, "\(size)")
        }
    }
}
