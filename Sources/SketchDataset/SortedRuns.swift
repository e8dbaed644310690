import Foundation
import SketchIO
import SketchFormats
import SystemPackage

/// The map side of the bounded-memory shuffle: examples are buffered up to a byte budget, and
/// each full buffer is sorted (``SortedExample/precedes(_:_:)``) and written as one *run* file.
/// Memory is the budget, whatever the number of examples.
package final class SortedRunWriter {
    /// Directory of the run files.
    package let directory: String
    private let budget: Int
    private var buffer: [SortedExample] = []
    private var buffered = 0
    /// Run files written so far, in order.
    package private(set) var runs: [String] = []

    /// Run files go to `directory` (created when missing) as `run-00000.bin`, …
    package init(directory: String, budgetBytes: Int) throws {
        self.directory = directory
        self.budget = max(1 << 20, budgetBytes)
        try createDirectories(directory)
    }

    package func add(_ example: SortedExample) throws {
        buffer.append(example)
        buffered += example.footprint
        if buffered >= budget { try spill() }
    }

    /// Writes what is buffered as a last run (when anything is) and returns every run file.
    package func finish() throws -> [String] {
        if !buffer.isEmpty { try spill() }
        return runs
    }

    /// Returns the run files written so far and the buffered examples, sorted, without writing
    /// them (a run that fits in memory never touches the disk).
    package func finishInMemory() -> (runs: [String], sorted: [SortedExample]) {
        let sorted = buffer.sorted(by: SortedExample.precedes)
        buffer = []
        buffered = 0
        return (runs, sorted)
    }

    private func spill() throws {
        buffer.sort(by: SortedExample.precedes)
        let path = "\(directory)/run-\(String(runs.count).leftPadded(to: 5)).bin"
        let writer = try AtomicFileWriter(path: path)
        var bytes: [UInt8] = SortedRunReader.magic
        for example in buffer {
            example.serialize(into: &bytes)
            if bytes.count >= 1 << 20 {
                try writer.write(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        try writer.write(bytes)
        try writer.commit()
        runs.append(path)
        buffer.removeAll(keepingCapacity: true)
        buffered = 0
    }
}

/// Reads one run file front to back with a bounded buffer (256 KiB, or two examples when larger).
package final class SortedRunReader {
    static let magic: [UInt8] = Array("SKRUN01\n".utf8)
    let path: String
    private let descriptor: FileDescriptor
    private var bytes: [UInt8] = []
    private var start = 0
    private var atEnd = false

    package init(path: String) throws {
        self.path = path
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw DatasetError("cannot read run file \(path): \(systemErrorText(error))")
        }
        try fill(atLeast: Self.magic.count)
        guard bytes.count >= Self.magic.count, Array(bytes[0..<Self.magic.count]) == Self.magic else {
            throw DatasetError("\(path) is not a sketchprep run file (wrong header)")
        }
        start = Self.magic.count
    }

    deinit { try? descriptor.close() }

    /// The next example, or nil at the end of the file.
    package func next() throws -> SortedExample? {
        while true {
            if start < bytes.count {
                var offset = start
                let result = bytes.withUnsafeBytes { raw in Result { () throws(DatasetError) in try SortedExample.deserialize(raw, offset: &offset) } }
                let example: SortedExample?
                switch result {
                case .success(let decoded): example = decoded
                case .failure(let error):
                    throw DatasetError("\(path) is not a valid run file (\(error.description) of the unread part); re-run that partition")
                }
                if let example {
                    start = offset
                    return example
                }
            }
            if atEnd {
                guard start == bytes.count else { throw DatasetError("\(path): truncated run file (a partition did not finish?)") }
                return nil
            }
            try fill(atLeast: max(1 << 18, 2 * (bytes.count - start)))
        }
    }

    /// Drops consumed bytes and reads until `count` unconsumed bytes are buffered or the file ends.
    private func fill(atLeast count: Int) throws {
        bytes.removeFirst(start)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while bytes.count < count && !atEnd {
            let read: Int
            do {
                read = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0, retryOnInterrupt: true) }
            } catch {
                throw DatasetError("cannot read run file \(path): \(systemErrorText(error))")
            }
            if read == 0 { atEnd = true } else { bytes += chunk[0..<read] }
        }
    }
}

/// The reduce side: a k-way merge of sorted runs (and an in-memory sorted tail) into one stream
/// in dataset order. Memory: one read buffer per run.
package struct SortedRunMerge {
    private var readers: [SortedRunReader]
    private var heads: [SortedExample?]
    private var memory: [SortedExample]
    private var memoryIndex = 0
    /// Min-heap of source indices by their head (source `readers.count` is `memory`).
    private var heap: [Int] = []

    package init(runs: [String], memory: [SortedExample] = []) throws {
        readers = try runs.map(SortedRunReader.init(path:))
        heads = try readers.map { try $0.next() }
        self.memory = memory
        for source in 0...readers.count where head(source) != nil { push(source) }
    }

    /// The next example in dataset order, or nil when every run is exhausted.
    package mutating func next() throws -> SortedExample? {
        guard let source = heap.first else { return nil }
        let example = head(source)!
        if source == readers.count {
            memoryIndex += 1
        } else {
            heads[source] = try readers[source].next()
        }
        popRoot()
        if head(source) != nil { push(source) }
        return example
    }

    private func head(_ source: Int) -> SortedExample? {
        source == readers.count ? (memoryIndex < memory.count ? memory[memoryIndex] : nil) : heads[source]
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = head(a)!, y = head(b)!
        if SortedExample.precedes(x, y) { return true }
        if SortedExample.precedes(y, x) { return false }
        return a < b
    }

    private mutating func push(_ source: Int) {
        heap.append(source)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popRoot() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
