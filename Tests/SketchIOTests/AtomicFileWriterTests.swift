import Foundation
import SketchTestSupport
import Testing

@testable import SketchIO

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

    @Test("contiguous blocks keep their order whether they pass through or are buffered")
    func contiguousBlocksKeepTheirOrder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        let writer = try AtomicFileWriter(path: path)
        let large = (0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // 1.5 MiB
        try large.withUnsafeBytes { try writer.write(contiguous: $0) }  // nothing buffered: passes through
        try writer.write([1, 2, 3])
        try large.withUnsafeBytes { try writer.write(contiguous: $0) }  // behind buffered bytes: buffered
        try [UInt8]([4]).withUnsafeBytes { try writer.write(contiguous: $0) }
        #expect(writer.bytesWritten == 2 * large.count + 4)
        try writer.commit()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == large + [1, 2, 3] + large + [4])
    }

    @Test("a file written past the early writeback keeps every byte, and its start can still be patched (an NPY header)")
    func writtenBackBytesStayAndCanBePatched() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.npy").path
        let writer = try AtomicFileWriter(path: path)
        let block = [UInt8](repeating: 0xA5, count: 1 << 20)  // 1 MiB
        let blocks = AtomicFileWriter.writebackBytes / block.count + 1
        var expected = Data()
        for index in 0..<blocks {
            var marked = block
            marked[index] = UInt8(index)
            if index % 2 == 0 { try marked.withUnsafeBytes { try writer.write(contiguous: $0) } } else { try writer.write(marked) }
            expected.append(contentsOf: marked)
        }
        try writer.write([7, 7, 7])
        try writer.overwrite([1, 2, 3, 4], at: 0)
        try writer.commit()
        expected.append(contentsOf: [7, 7, 7])
        expected.replaceSubrange(0..<4, with: [1, 2, 3, 4])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
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
        #expect(throws: IOError.self) { try writer.commit() }
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

    @Test("temporary names carry this host, this process and a random part, and can be parsed back")
    func namesCarryHostPIDAndRandomPart() {
        let name = TemporaryFileName.forWriting("dir/out.npy")
        let prefix = "dir/out.npy.tmp-\(TemporaryFileName.host)-\(getpid())-"
        #expect(name.hasPrefix(prefix))
        #expect(name.count == prefix.count + TemporaryFileName.randomBytes)
        #expect(name != TemporaryFileName.forWriting("dir/out.npy"))
        #expect(name.utf8.count - "dir/out.npy".utf8.count <= TemporaryFileName.maximumSuffixBytes)
        let owner = TemporaryFileName.owner(of: (name as NSString).lastPathComponent)
        #expect(owner?.host == TemporaryFileName.host)
        #expect(owner?.pid == getpid())
        let older = TemporaryFileName.owner(of: "out.npy.tmp-node-7-1234")
        #expect(older?.host == "node-7")
        #expect(older?.pid == 1234)
        #expect(TemporaryFileName.owner(of: "out.npy") == nil)
        // The last marker counts; names that are not ASCII parse the same way.
        let twice = TemporaryFileName.owner(of: "a.tmp-x-9.tmp-h-12-abcdefgh")
        #expect(twice?.host == "h" && twice?.pid == 12)
        let accented = TemporaryFileName.owner(of: "café.npy.tmp-hôte-34")
        #expect(accented?.host == "hôte" && accented?.pid == 34)
        #expect(TemporaryFileName.owner(of: ".tmp-") == nil)
        #expect(TemporaryFileName.owner(of: ".tmp-h-0") == nil)
    }

    @Test("a symbolic link planted at the destination is replaced, and the file it points to is untouched")
    func plantedLinkAtDestinationIsNotFollowed() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim.txt").path
        try "keep".write(toFile: victim, atomically: false, encoding: .utf8)
        let output = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output + "/classes.txt", withDestinationPath: victim)
        try writeAtomically("cat\n", to: output + "/classes.txt")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: output + "/classes.txt", encoding: .utf8) == "cat\n")
        var status = stat()
        #expect(lstat(output + "/classes.txt", &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
    }

    @Test("a fresh temporary directory is created exclusively and registered until removed")
    func temporaryDirectoriesAreFreshAndRegistered() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = directory.appendingPathComponent(".runs").path
        let first = try TemporaryFileName.makeDirectory(base)
        let second = try TemporaryFileName.makeDirectory(base)
        #expect(first != second)
        var status = stat()
        #expect(lstat(first, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR && (status.st_mode & 0o777) == 0o700)
        TemporaryFiles.removeDirectory(first)
        TemporaryFiles.removeDirectory(second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
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
