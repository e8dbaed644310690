import SketchTestSupport
import Foundation
import Testing
@testable import SketchFormats

@Suite struct AtomicFileWriterTests {
    @Test("overwrite patches bytes already flushed, raw values are written in machine order")
    func overwritePatchesWrittenBytes() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        let writer = try AtomicFileWriter(path: path)
        try writer.write([1, 2, 3, 4])
        try writer.write(rawValuesOf: [UInt16(0x0605)])
        #expect(writer.bytesWritten == 6)
        try writer.overwrite([9, 8], at: 1)
        try writer.commit()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == [1, 9, 8, 4, 5, 6])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    @Test("a failed rename reports the path and removes the temporary file")
    func failedRenameCleansUp() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("taken").path
        let writer = try AtomicFileWriter(path: path)
        try writer.write("data")
        // Meanwhile the destination became a non-empty directory: rename(2) onto it fails.
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        #expect(throws: FileWriteError.self) { try writer.commit() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken"])
    }
}
