import Foundation
import SketchFormats
import SketchIO

/// Per-category temporary files behind in-memory buffers of bounded total size: `convert` spills
/// NDJSON lines by word (the word's bytes: words that differ only by normalization stay apart),
/// the sketch-rnn pipeline binary stroke-3 records by class label (`Stroke3DatasetWriter`).
package final class CategorySpill<Category: Hashable> {
    private let directory: String
    private let bufferLimit: Int
    private var buffers: [Category: [UInt8]] = [:]
    private var buffered = 0
    private var paths: [Category: String] = [:]

    package init(bufferLimit: Int) throws {
        directory = try TemporaryFileName.makeDirectory(NSTemporaryDirectory() + "sketchprep-convert")
        self.bufferLimit = bufferLimit
    }

    package func add(_ line: [UInt8], to category: Category) throws {
        buffers[category, default: []] += line
        buffered += line.count
        if buffered >= bufferLimit { try flush() }
    }

    /// Appends every buffer to its category's file.
    package func flush() throws {
        for (category, bytes) in buffers where !bytes.isEmpty {
            let path = paths[category] ?? "\(directory)/\(paths.count).spill"
            paths[category] = path
            try appendToFile(bytes, path: path)
        }
        buffers.removeAll()
        buffered = 0
    }

    /// The bytes added for `category`, in order (its file's, then its buffer's; none for a
    /// category never added), which the spill then forgets: a caller taking the categories in turn
    /// holds one at a time besides the buffers, and a category that never outgrew them is never
    /// written to disk.
    package func take(_ category: Category) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let path = paths.removeValue(forKey: category) {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            FileSystem.removeTree(path)
        }
        if let buffer = buffers.removeValue(forKey: category) {
            buffered -= buffer.count
            bytes += buffer
        }
        return bytes
    }

    package func removeFiles() { TemporaryFiles.removeDirectory(directory) }

    deinit { removeFiles() }
}

extension CategorySpill where Category == [UInt8] {
    /// Words with their spill files, in byte-wise word order (after `flush()`).
    package var files: [(word: String, path: String)] {
        paths.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (String(decoding: $0.key, as: UTF8.self), $0.value) }
    }

    package func add(_ line: [UInt8], word: String) throws { try add(line, to: Array(word.utf8)) }
}
