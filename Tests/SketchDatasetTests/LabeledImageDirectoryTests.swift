import Foundation
import SketchDataset
import SketchFormats
import Testing

@Suite struct LabeledImageDirectoryTests {
    private func makeTree(_ files: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("labeled-\(UUID().uuidString)").path
        for file in files {
            let path = "\(root)/\(file)"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    @Test("split directories are honoured, classes come from directory names, non-PNG files are skipped")
    func splitDirectories() throws {
        let root = try makeTree([
            "train/cat/2.png", "train/cat/1.PNG", "train/ant/9.png", "test/cat/5.png",
            "train/cat/notes.txt",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try LabeledImageDirectory.scan(root).files
        #expect(files.map(\.keyID) == ["train/ant/9.png", "train/cat/1.PNG", "train/cat/2.png", "test/cat/5.png"])
        #expect(files.map(\.directorySplit) == ["train", "train", "train", "test"])
        #expect(LabeledImageDirectory.classNames(of: files) == ["ant", "cat"])
    }

    @Test("without split directories every image has no split and a class-relative key")
    func flatLayout() throws {
        let root = try makeTree(["dog/a.png", "cat/b.png"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try LabeledImageDirectory.scan(root).files
        #expect(files.map(\.keyID) == ["cat/b.png", "dog/a.png"])
        #expect(files.allSatisfy { $0.directorySplit == nil })
    }

    @Test("a missing root is an error")
    func missingRoot() {
        #expect(throws: (any Error).self) { try LabeledImageDirectory.scan("/nonexistent/sketchprep-root") }
    }

    @Test("a dangling link is a rejected entry and a FIFO named *.png is skipped, never opened")
    func hostileEntriesAreReportedNotOpened() throws {
        let root = try makeTree(["cat/1.png"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: "\(root)/cat/2.png", withDestinationPath: "\(root)/gone.png")
        #expect(mkfifo("\(root)/cat/3.png", 0o644) == 0)
        let listing = try LabeledImageDirectory.scan(root)
        #expect(listing.files.map(\.keyID) == ["cat/1.png"])
        #expect(listing.rejected.map(\.location.file) == ["\(root)/cat/2.png"])
        #expect(listing.skipped.count == 1 && listing.skipped[0].contains("3.png"))
    }

    @Test("the listing is the same whatever number of threads lists the class directories")
    func listingIsTheSameForAnyThreadCount() throws {
        var files: [String] = []
        for split in ["train", "test"] {
            for (number, word) in ["ant", "bee", "cat", "dog", "eel", "fox", "gnu"].enumerated() {
                files += (0..<(number % 3 + 1)).map { "\(split)/\(word)/\($0).png" }
            }
        }
        let root = try makeTree(files + ["train/bad\u{7}class/1.png"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: "\(root)/train/cat/9.png", withDestinationPath: "\(root)/gone.png")
        #expect(mkfifo("\(root)/test/dog/7.png", 0o644) == 0)
        let one = try LabeledImageDirectory.scan(root)
        #expect(one.files.count == files.count && one.rejected.count == 2 && one.skipped.count == 1)
        for threads in [2, 3, 16] {
            #expect(try LabeledImageDirectory.scan(root, threads: threads) == one)
        }
    }
}
