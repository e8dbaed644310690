import Foundation
import SketchTestSupport
import Testing

@testable import SketchIO

@Suite struct OutputLockTests {
    @Test("a second writer is refused at once, naming the holder's host, pid and command")
    func aSecondWriterIsRefusedNamingTheHolder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".out.lock").path
        let holder = try OutputLock.acquire(path, output: "out")
        #expect {
            try OutputLock.acquire(path, output: "out")
        } throws: { error in
            guard let error = error as? IOError, error.kind == .busy else { return false }
            return error.reason.contains("pid \(getpid())") && error.reason.contains("host \(TemporaryFileName.host)")
                && error.reason.contains("command ")
        }
        #expect(throws: IOError.self) { try OutputLock.acquire(path, output: "out", shared: true) }
        holder.release()
        #expect(!FileManager.default.fileExists(atPath: path), "a released lock removes its file")
        let next = try OutputLock.acquire(path, output: "out")
        next.release()
    }

    @Test("shared holders exclude an exclusive one, not each other")
    func sharedHoldersExcludeOnlyAnExclusiveOne() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".out.lock").path
        let first = try OutputLock.acquire(path, output: "out", shared: true)
        let second = try OutputLock.acquire(path, output: "out", shared: true)
        #expect(throws: IOError.self) { try OutputLock.acquire(path, output: "out") }
        first.release()
        second.release()
        try OutputLock.acquire(path, output: "out").release()
    }

    @Test("an exchange swaps two directories in one step where the file system can")
    func anExchangeSwapsTwoDirectories() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a").path
        let b = directory.appendingPathComponent("b").path
        try createDirectories(a)
        try createDirectories(b)
        try writeAtomically("old", to: "\(a)/file")
        try writeAtomically("new", to: "\(b)/file")
        guard try DirectorySwap.exchange(b, a) else { return }  // no RENAME_EXCHANGE here: callers rename in steps
        #expect(try String(contentsOfFile: "\(a)/file", encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: "\(b)/file", encoding: .utf8) == "old")
    }
}
