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
        #expect(throws: FormatError.self) { try writer.commit() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken"])
    }
}

@Suite struct TemporaryFileNameTests {
    /// A process id that no process has now.
    private func deadPID() -> pid_t {
        var pid: pid_t = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        return pid
    }

    @Test("temporary names carry this host and this process and can be parsed back")
    func namesCarryHostAndPID() {
        let name = TemporaryFileName.forWriting("dir/out.npy")
        #expect(name == "dir/out.npy.tmp-\(TemporaryFileName.host)-\(getpid())")
        let owner = TemporaryFileName.owner(of: "out.npy.tmp-node-7-1234")
        #expect(owner?.host == "node-7")
        #expect(owner?.pid == 1234)
        #expect(TemporaryFileName.owner(of: "out.npy") == nil)
    }

    @Test("a writer removes this host's stale temporary files of dead processes, never another host's or a live process's")
    func staleTemporaryFilesOfThisHostAreRemoved() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = TemporaryFileName.host
        let stale = "a.npy.tmp-\(host)-\(deadPID())"
        let otherHost = "b.npy.tmp-\(host)x-\(deadPID())"
        let live = "c.npy.tmp-\(host)-1"
        for name in [stale, otherHost, live] { try Data([0]).write(to: directory.appendingPathComponent(name)) }
        try writeAtomically("x", to: directory.appendingPathComponent("out.txt").path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == [otherHost, live, "out.txt"])
    }
}
