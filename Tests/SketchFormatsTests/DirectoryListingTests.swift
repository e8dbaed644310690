import Foundation
import SketchIO
import SketchTestSupport
import Testing

@testable import SketchFormats

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DirectoryListingTests {
    /// A directory holding one good file and every kind of hostile entry, all named `*.png`.
    private func hostileDirectory() throws -> URL {
        let directory = try TestSupport.temporaryDirectory()
        let path = directory.path
        try Data([1]).write(to: directory.appendingPathComponent("good.png"))
        try FileManager.default.createSymbolicLink(atPath: "\(path)/dangling.png", withDestinationPath: "\(path)/missing")
        try FileManager.default.createSymbolicLink(atPath: "\(path)/loop.png", withDestinationPath: "\(path)/loop.png")
        try FileManager.default.createSymbolicLink(atPath: "\(path)/zero.png", withDestinationPath: "/dev/zero")
        #expect(mkfifo("\(path)/fifo.png", 0o644) == 0)
        let badName = Array("\(path)/bad".utf8) + [0xFF] + Array(".png".utf8)
        let fd = badName.withUnsafeBufferPointer { buffer in
            (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        return directory
    }

    @Test("a directory's entries classified on threads are the entries one thread classifies, in the same order")
    func entriesOnThreadsMatchOneThread() throws {
        let directory = try hostileDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Past the count that puts the classification on threads, with a subdirectory and hidden names.
        for index in 0..<(DirectoryWalk.parallelEntries + 37) {
            try Data([UInt8(index % 256)]).write(to: directory.appendingPathComponent("image-\(index).png"))
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("class"), withIntermediateDirectories: false)
        try Data([0]).write(to: directory.appendingPathComponent(".hidden.png"))
        let one = try DirectoryWalk.entries(of: directory.path)
        #expect(one.count == DirectoryWalk.parallelEntries + 37 + 7)
        #expect(!one.contains { $0.name.hasPrefix(".") })
        for threads in [2, 3, 8] {
            #expect(try DirectoryWalk.entries(of: directory.path, threads: threads) == one)
            #expect(
                try DirectoryWalk.list(directory.path, recursive: true, threads: threads) { $0.hasSuffix(".png") }
                    == DirectoryWalk.list(directory.path, recursive: true) { $0.hasSuffix(".png") })
        }
    }

    @Test("dangling links, link loops and non-UTF-8 names are rejected with reasons; FIFOs and devices are skipped without being opened")
    func hostileEntriesAreClassified() throws {
        let directory = try hostileDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listing = try DirectoryWalk.list(directory.path, recursive: false) { $0.hasSuffix(".png") }
        #expect(listing.files == ["\(directory.path)/good.png"])
        let reasons = Dictionary(uniqueKeysWithValues: listing.rejected.map { ($0.location.file, $0.reason) })
        #expect(reasons["\(directory.path)/dangling.png"]?.contains("dangling symbolic link") == true)
        #expect(reasons["\(directory.path)/loop.png"]?.contains("symbolic link loop") == true)
        #expect(reasons["\(directory.path)/bad\\xff.png"]?.contains("not valid UTF-8") == true)
        #expect(listing.rejected.allSatisfy { $0.location.line == 0 })
        #expect(listing.skipped.count == 2)
        #expect(listing.skipped.contains { $0.contains("fifo.png") && $0.contains("FIFO") })
        #expect(listing.skipped.contains { $0.contains("zero.png") && $0.contains("character device") })
    }

    @Test("a recursive walk follows directory links but visits each directory once, so a link cycle ends")
    func recursiveWalkSurvivesCycles() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data([1]).write(to: directory.appendingPathComponent("a/b/x.png"))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/a/b/up", withDestinationPath: directory.path + "/a")
        let listing = try DirectoryWalk.list(directory.path, recursive: true) { $0.hasSuffix(".png") }
        #expect(listing.files == ["\(directory.path)/a/b/x.png"])
        #expect(listing.rejected.isEmpty)
    }

    @Test("a recursive walk rejects a directory whose name is not UTF-8 and ignores such a file of another kind")
    func recursiveWalkRejectsUndecodableDirectories() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = Array(directory.path.utf8)
        let badDirectory = base + Array("/d".utf8) + [0xFE, 0]
        let badText = base + Array("/notes".utf8) + [0xFE] + Array(".txt".utf8) + [0]
        #expect(badDirectory.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } } == 0)
        let fd = badText.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        let listing = try DirectoryWalk.list(directory.path, recursive: true) { $0.hasSuffix(".png") }
        #expect(listing.files.isEmpty)
        #expect(listing.rejected.map(\.location.file) == ["\(directory.path)/d\\xfe"])
    }

    @Test("QuickDrawReader hands rejected directory entries to onRejected before the records and reads the rest")
    func readerReportsRejectedSources() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let line = #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"1","drawing":[[[0,1],[0,1]]]}"#
        try Data((line + "\n").utf8).write(to: directory.appendingPathComponent("a.ndjson"))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/b.ndjson", withDestinationPath: directory.path + "/gone")
        #expect(mkfifo(directory.path + "/c.ndjson", 0o644) == 0)
        let reader = try QuickDrawReader(inputs: [directory.path])
        #expect(reader.files == [directory.path + "/a.ndjson"])
        #expect(reader.skippedSources.count == 1)
        let (records, rejected) = try TestSupport.readAll([directory.path])
        #expect(records.map(\.keyID) == ["1"])
        #expect(rejected.map(\.location.file) == [directory.path + "/b.ndjson"])
    }

    @Test("a FIFO named as an input is read in one pass, every byte of it consumed")
    func fifoInputIsReadInOnePass() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.path + "/in.ndjson"
        #expect(mkfifo(fifo, 0o644) == 0)
        let line = #"{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"7","drawing":[[[0,1],[0,1]]]}"#
        let payload = Array((line + "\n").utf8)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            payload.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        writer.start()
        let reader = try QuickDrawReader(inputs: [fifo])
        var keys: [String] = []
        var consumed = 0
        try reader.read(onRecord: { record, _ in keys.append(record.keyID) }, onRejected: { _ in }, onProgress: { consumed = $0 })
        #expect(keys == ["7"])
        #expect(consumed == payload.count)
    }

    @Test("readFirst stops after the requested number of records")
    func readFirstStops() throws {
        let directory = TestSupport.quickDrawDirectory("simplified").path
        let records = try QuickDrawReader(inputs: [directory]).readFirst(3) { _ in }
        #expect(records.count == 3)
    }
}
