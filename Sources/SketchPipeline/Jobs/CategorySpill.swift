import Foundation
import SketchFormats
import SketchIO

/// Per-category temporary files behind in-memory buffers of bounded total size: `convert` spills
/// NDJSON lines, the sketch-rnn pipeline binary stroke-3 records (`Stroke3DatasetWriter`).
final class CategorySpill {
    private let directory: String
    private let bufferLimit: Int
    // Keyed by the word's bytes: words that differ only by normalization stay apart.
    private var buffers: [[UInt8]: [UInt8]] = [:]
    private var buffered = 0
    private var paths: [[UInt8]: String] = [:]

    init(bufferLimit: Int) throws {
        directory = try TemporaryFileName.makeDirectory(NSTemporaryDirectory() + "sketchprep-convert")
        self.bufferLimit = bufferLimit
    }

    /// Categories with their spill files, in byte-wise word order (after `flush()`).
    var files: [(word: String, path: String)] {
        paths.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (String(decoding: $0.key, as: UTF8.self), $0.value) }
    }

    func add(_ line: [UInt8], word: String) throws {
        buffers[Array(word.utf8), default: []] += line
        buffered += line.count
        if buffered >= bufferLimit { try flush() }
    }

    /// Appends every buffer to its category's file.
    func flush() throws {
        for (word, bytes) in buffers where !bytes.isEmpty {
            let path = paths[word] ?? "\(directory)/\(paths.count).spill"
            paths[word] = path
            try appendToFile(bytes, path: path)
        }
        buffers.removeAll()
        buffered = 0
    }

    /// Every category added, as its word's bytes (spilled or not).
    var categories: [[UInt8]] { Array(Set(buffers.keys).union(paths.keys)) }

    /// The bytes added for the category whose word's bytes are `word`, in order (its file's, then
    /// its buffer's), which the spill then forgets: a caller taking the categories in turn holds
    /// one at a time besides the buffers, and a category that never outgrew them is never written
    /// to disk.
    func take(_ word: [UInt8]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let path = paths.removeValue(forKey: word) {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try? FileManager.default.removeItem(atPath: path)
        }
        if let buffer = buffers.removeValue(forKey: word) {
            buffered -= buffer.count
            bytes += buffer
        }
        return bytes
    }

    func removeFiles() { TemporaryFiles.removeDirectory(directory) }

    deinit { removeFiles() }
}
