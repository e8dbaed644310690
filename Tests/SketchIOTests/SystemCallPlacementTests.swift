import Foundation
import SketchTestSupport
import Testing

@Suite struct SystemCallPlacementTests {
    /// The system calls that touch the file system, by name.
    private static let calls = [
        "rename", "renameat2", "unlink", "unlinkat", "stat", "lstat", "fstat", "mkdir", "mkdirat", "rmdir", "openat",
        "fsync", "fdatasync", "link", "symlink", "readlink", "opendir", "ftruncate", "posix_fallocate", "flock",
        "realpath", "access",
    ]

    /// Every system call on a path or file descriptor is made in `Sources/SketchIO/SystemCall.swift`
    /// (``FileSystem``), under its one EINTR and error rule: no other source file calls one.
    @Test func onlySystemCallSwiftCallsTheFileSystem() throws {
        let sources = TestSupport.repositoryRoot.appendingPathComponent("Sources")
        let named = try Regex("(^|[^.\\w])(\(Self.calls.joined(separator: "|")))\\(")
        let opened = try Regex("(^|[^.\\w])open\\([^)]*O_[A-Z]")
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".swift") && file != "SketchIO/SystemCall.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                guard !code.hasPrefix("//"), !code.contains("func ") else { continue }
                if line.contains(named) || line.contains(opened) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(found == [])
    }
}
