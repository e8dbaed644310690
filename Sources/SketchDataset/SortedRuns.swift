import Foundation
import SketchFormats
import SketchIO
import SystemPackage

/// The map side of the bounded-memory shuffle: examples are buffered up to a byte budget, and
/// each full buffer is sorted (``SortedExample/precedes(_:_:)``) and written as one *run* file.
/// Memory is the budget, whatever the number of examples.
///
/// A run file is `SKRUN02\n` and then blocks of whole records (``SortedExample/serialize(into:)``),
/// each behind a 24-byte header: `u32` payload length, `u32` CRC-32C of the two keys and the
/// payload, `u64` first and `u64` last sort key in the block. The keys let a reader skip every
/// block outside its range of the dataset order without reading it; the CRC and the record
/// lengths make a damaged or truncated file an error, checked cheaply before any record is used.
package final class SortedRunWriter {
    /// Directory of the run files.
    package let directory: String
    private let budget: Int
    private var buffer: [SortedExample] = []
    private var buffered = 0
    /// Run files written so far, in order.
    package private(set) var runs: [String] = []

    /// Bytes a block holds before it is closed (a larger record gets a block of its own).
    static let blockTargetBytes = 256 << 10

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

    /// Run files written since the last chunk boundary.
    private var chunkStart = 0

    /// A chunk boundary (resume, ``MapCheckpoint``): writes what is buffered as a run, so that
    /// every run holds the examples of one input chunk, and returns the run files of the chunk
    /// that ends here.
    package func closeChunk() throws -> [String] {
        if !buffer.isEmpty { try spill() }
        defer { chunkStart = runs.count }
        return Array(runs[chunkStart...])
    }

    /// Writes what is buffered as a last run (when anything is) and returns every run file.
    package func finish() throws -> [String] {
        if !buffer.isEmpty { try spill() }
        return runs
    }

    private func spill() throws {
        buffer.sort(by: SortedExample.precedes)
        let path = "\(directory)/run-\(String(runs.count).leftPadded(to: 5)).bin"
        let writer = try AtomicFileWriter(path: path)
        try writer.write(RunFile.magic)
        var block: [UInt8] = []
        var first: UInt64 = 0
        var last: UInt64 = 0
        func close() throws {
            guard !block.isEmpty else { return }
            try writer.write(RunFile.blockHeader(payload: block, first: first, last: last))
            try writer.write(block)
            block.removeAll(keepingCapacity: true)
        }
        for example in buffer {
            if block.isEmpty { first = example.sortKey }
            last = example.sortKey
            example.serialize(into: &block)
            if block.count >= Self.blockTargetBytes { try close() }
        }
        try close()
        try writer.commit()
        runs.append(path)
        buffer.removeAll(keepingCapacity: true)
        buffered = 0
    }
}

/// The framing of run files (``SortedRunWriter``).
package enum RunFile {
    package static let magic: [UInt8] = Array("SKRUN02\n".utf8)
    static let headerBytes = 24
    /// Largest block payload read: one record of the largest body and strings, or 256 KiB of records.
    package static let maximumBlockBytes = SortedExample.maximumBodyBytes + 2 * SortedExample.maximumStringBytes + 4096

    static func blockHeader(payload: [UInt8], first: UInt64, last: UInt64) -> [UInt8] {
        var header: [UInt8] = []
        header.appendLE(UInt32(payload.count))
        var keys: [UInt8] = []
        keys.appendLE(first)
        keys.appendLE(last)
        header.appendLE(CRC32C.checksum(payload, continuing: CRC32C.checksum(keys)))
        return header + keys
    }

    /// The payload length, CRC and key range of a block header (24 bytes at `header`).
    static func parseHeader(_ header: UnsafeRawBufferPointer) -> (length: Int, crc: UInt32, first: UInt64, last: UInt64) {
        (
            Int(UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 0, as: UInt32.self))),
            UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
            UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        )
    }

    /// Checks one block's payload against its header: the CRC, then every record's framing
    /// (``RunRecord/parse(_:offset:)``) and its sort key inside the header's range and in order.
    /// Returns the number of records.
    static func checkBlock(_ payload: UnsafeRawBufferPointer, crc: UInt32, first: UInt64, last: UInt64) throws(DatasetError) -> Int {
        var keys: [UInt8] = []
        keys.appendLE(first)
        keys.appendLE(last)
        let computed = payload.withMemoryRebound(to: UInt8.self) { CRC32C.checksum($0, continuing: CRC32C.checksum(keys)) }
        guard computed == crc else { throw DatasetError("a block's CRC-32C does not match its bytes") }
        var offset = 0
        var previous = first
        var count = 0
        while offset < payload.count {
            let record = try RunRecord.parse(payload, offset: &offset)
            guard record.sortKey >= previous, record.sortKey <= last else {
                throw DatasetError("record \(count) of a block is outside the block's sort-key range or out of order")
            }
            previous = record.sortKey
            count += 1
        }
        guard count > 0 else { throw DatasetError("an empty block") }
        return count
    }
}

/// Reads the records of one run file whose sort keys fall in `keys`, front to back: blocks
/// wholly outside the range are skipped by their headers (never read), and each block read is
/// checked (``RunFile/checkBlock(_:crc:first:last:)``) before its records are handed out. One
/// block is held at a time; a ``RunRecord`` stays valid until the next call of ``next()``.
package final class RunRangeReader {
    let path: String
    private let descriptor: FileDescriptor
    private let size: Int
    private let keys: ClosedRange<UInt64>
    private var fileOffset: Int
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var block = UnsafeRawBufferPointer(start: nil, count: 0)
    private var blockOffset = 0
    private var done = false

    package init(path: String, keys: ClosedRange<UInt64> = 0...UInt64.max) throws {
        self.path = path
        self.keys = keys
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
            size = Int(try descriptor.seek(offset: 0, from: .end))
        } catch {
            throw DatasetError("cannot read run file \(path): \(systemErrorText(error))")
        }
        var magic = [UInt8](repeating: 0, count: RunFile.magic.count)
        let opened = descriptor
        let read = try? magic.withUnsafeMutableBytes { try opened.read(fromAbsoluteOffset: 0, into: $0) }
        guard read == magic.count, magic == RunFile.magic else {
            try? opened.close()
            throw DatasetError("\(path) is not a sketchprep run file of this version (wrong header); re-run its map side")
        }
        fileOffset = RunFile.magic.count
    }

    deinit {
        storage.deallocate()
        try? descriptor.close()
    }

    /// The next record in the range, or nil at its end.
    package func next() throws -> RunRecord? {
        while !done {
            if blockOffset < block.count {
                let record: RunRecord
                do {
                    record = try RunRecord.parse(block, offset: &blockOffset)
                } catch {
                    throw invalid(error.description)
                }
                if record.sortKey < keys.lowerBound { continue }
                if record.sortKey > keys.upperBound {
                    done = true
                    return nil
                }
                return record
            }
            try loadBlock()
        }
        return nil
    }

    private func invalid(_ detail: String) -> DatasetError {
        DatasetError("\(path) is not a valid run file (\(detail)); re-run its map side")
    }

    /// Reads the next block that may hold keys of the range (or ends the file).
    private func loadBlock() throws {
        block = UnsafeRawBufferPointer(start: nil, count: 0)
        blockOffset = 0
        while true {
            if fileOffset == size {
                done = true
                return
            }
            guard size - fileOffset >= RunFile.headerBytes else { throw invalid("truncated: a block header is cut off") }
            var header = [UInt8](repeating: 0, count: RunFile.headerBytes)
            try read(into: &header, at: fileOffset)
            let (length, crc, first, last) = header.withUnsafeBytes(RunFile.parseHeader)
            guard length <= RunFile.maximumBlockBytes, length <= size - fileOffset - RunFile.headerBytes, first <= last else {
                throw invalid("truncated or damaged: a block declares \(length) bytes")
            }
            let payloadOffset = fileOffset + RunFile.headerBytes
            fileOffset = payloadOffset + length
            if last < keys.lowerBound { continue }
            if first > keys.upperBound {
                done = true
                return
            }
            if storage.count < length {
                storage.deallocate()
                storage = .allocate(byteCount: max(length, SortedRunWriter.blockTargetBytes * 2), alignment: 8)
            }
            let payload = UnsafeMutableRawBufferPointer(rebasing: storage[0..<length])
            do {
                let got = try descriptor.read(fromAbsoluteOffset: Int64(payloadOffset), into: payload, retryOnInterrupt: true)
                guard got == length else { throw invalid("truncated: a block is cut off") }
            } catch let error as DatasetError {
                throw error
            } catch {
                throw DatasetError("cannot read run file \(path): \(systemErrorText(error))")
            }
            do {
                _ = try RunFile.checkBlock(UnsafeRawBufferPointer(payload), crc: crc, first: first, last: last)
            } catch {
                throw invalid(error.description)
            }
            block = UnsafeRawBufferPointer(payload)
            return
        }
    }

    private func read(into bytes: inout [UInt8], at offset: Int) throws {
        let got: Int
        do {
            got = try bytes.withUnsafeMutableBytes {
                try descriptor.read(fromAbsoluteOffset: Int64(offset), into: $0, retryOnInterrupt: true)
            }
        } catch {
            throw DatasetError("cannot read run file \(path): \(systemErrorText(error))")
        }
        guard got == bytes.count else { throw invalid("truncated") }
    }
}

/// The reduce side's k-way merge of sorted runs into one stream in dataset order, over the sort
/// keys `keys`. Memory: one block per run. The record returned stays valid until the next call.
package struct RunMerge {
    private var readers: [RunRangeReader]
    private var heads: [RunRecord?]
    /// Min-heap of reader indices by their head.
    private var heap: [Int] = []
    /// The reader whose head was handed out last (advanced on the next call).
    private var handedOut: Int?

    package init(runs: [String], keys: ClosedRange<UInt64> = 0...UInt64.max) throws {
        readers = try runs.map { try RunRangeReader(path: $0, keys: keys) }
        heads = try readers.map { try $0.next() }
        for source in readers.indices where heads[source] != nil { push(source) }
    }

    /// The next record in dataset order, or nil when every run is exhausted.
    package mutating func next() throws -> RunRecord? {
        if let source = handedOut {
            handedOut = nil
            heads[source] = try readers[source].next()
            popRoot()
            if heads[source] != nil { push(source) }
        }
        guard let source = heap.first else { return nil }
        handedOut = source
        return heads[source]
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = heads[a]!
        let y = heads[b]!
        if RunRecord.precedes(x, y) { return true }
        if RunRecord.precedes(y, x) { return false }
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
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
