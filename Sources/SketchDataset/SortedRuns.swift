import Foundation
import SketchFormats
import SketchIO
import SystemPackage

/// The map side of the bounded-memory shuffle: sorted fragments of examples (``RunFragment``, made
/// and sorted by the map's workers) are buffered up to a byte budget, and each full buffer is
/// merged into the dataset order (``SortedExample/precedes(_:_:)``) and written as one *run* file.
/// Memory is the budget, or one fragment when a single fragment is larger, whatever the number of
/// examples.
///
/// A run file (``RunFile``) is `SKRUN03\n`, blocks of whole records
/// (``SortedExample/serialize(into:)``) each behind a 32-byte header (`u32` payload length, `u32`
/// CRC-32C of the rest of the header and the payload, `u64` sequence number from 0, `u64` first and
/// `u64` last sort key in the block), then a 48-byte trailer: `SKRUNEND`, `u64` block count and the
/// SHA-256 of every block header in order (the block table). The keys let a reader skip every
/// block outside its range of the dataset order without reading it; the CRC, the sequence numbers,
/// the table's digest and the record lengths make a damaged, truncated, reordered, repeated or
/// missing block an error, checked before any record is used.
package final class SortedRunWriter {
    /// Directory of the run files.
    package let directory: String
    /// Bytes of fragments buffered before they are written as a run.
    private let budget: Int
    private var buffer: [RunFragment] = []
    private var buffered = 0
    /// Run files written so far, in order (the last may still be being written in the background).
    package private(set) var runs: [String] = []
    /// Whether each run's size and SHA-256 are taken from the bytes as they are written, for
    /// ``closeChunk(then:)`` (a resume checkpoint lists them), so that no run is read back to hash it.
    private let measuresRuns: Bool
    /// The size and SHA-256 of each run of the current chunk written so far, in ``runs`` order,
    /// when ``measuresRuns``.
    private var chunkMeasured: [MeasuredRun] = []
    /// Whether runs are written on a thread of their own while the next run's fragments arrive.
    private let writesInBackground: Bool
    /// The run being written in the background (at most one at a time).
    private var pending: BackgroundRun?

    /// A run file with its size and SHA-256.
    package struct MeasuredRun: Sendable {
        package var path: String
        package var bytes: Int
        package var sha256: String
    }

    /// Bytes a block holds before it is closed (a larger record gets a block of its own).
    static let blockTargetBytes = 256 << 10

    /// Run files go to `directory` (created when missing) as `run-00000.bin`, …; `measuresRuns`
    /// hashes them as they are written, for ``closeChunk(then:)``. With `writesInBackground` each run is
    /// merged and written on a thread of its own while the caller goes on adding fragments, and
    /// the budget is shared by the buffer being filled and the run being written (half each), so
    /// memory stays within `budgetBytes` either way.
    package init(directory: String, budgetBytes: Int, measuresRuns: Bool = false, writesInBackground: Bool = false) throws {
        self.directory = directory
        let total = max(1 << 20, budgetBytes)
        self.budget = writesInBackground ? total / 2 : total
        self.measuresRuns = measuresRuns
        self.writesInBackground = writesInBackground
        try createDirectories(directory)
    }

    /// Waits for a run still being written, so that no thread writes into the directory after the
    /// writer is gone (the caller may remove it).
    deinit { _ = pending?.wait() }

    /// Buffers `fragment`'s examples, first writing what is buffered as a run when the fragment
    /// would take the buffer past the budget, and writing the buffer as a run at once when it
    /// reaches the budget (a fragment over the budget is a run of its own, held no longer than
    /// before). A fragment not sorted yet is sorted here.
    package func add(_ fragment: RunFragment) throws {
        guard fragment.count > 0 else { return }
        if buffered > 0 && buffered + fragment.footprint > budget { try spill() }
        var fragment = fragment
        fragment.sort()
        buffered += fragment.footprint
        buffer.append(fragment)
        if buffered >= budget { try spill() }
    }

    /// Run files written since the last chunk boundary.
    private var chunkStart = 0

    /// A chunk boundary (resume, ``MapCheckpoint``): writes what is buffered as a run, so that
    /// every run holds the examples of one input chunk, and returns the run files of the chunk
    /// that ends here. Once they are all written, `then` gets them with their sizes and SHA-256s
    /// (a writer made with `measuresRuns`): with `writesInBackground` on the thread that writes
    /// the last of them, while the caller goes on with the next chunk (the writer's next spill,
    /// chunk boundary or ``finish()`` waits for it and rethrows what it threw); else here.
    package func closeChunk(then: @escaping @Sendable ([MeasuredRun]) throws -> Void) throws -> [String] {
        precondition(measuresRuns, "SortedRunWriter.closeChunk(then:) needs a writer that measures its runs")
        // At most one run is written in the background: the buffer's, handed over below.
        try finishPending()
        let fragments = buffer
        let path = fragments.isEmpty ? nil : nextRunPath()
        buffer = []
        buffered = 0
        if let path { runs.append(path) }
        let chunkRuns = Array(runs[chunkStart...])
        chunkStart = runs.count
        let earlier = chunkMeasured
        chunkMeasured = []
        let close: @Sendable () throws -> MeasuredRun? = {
            var measured = earlier
            if let path, let run = try Self.writeRun(fragments, to: path, measuring: true) { measured.append(run) }
            try then(measured)
            return nil
        }
        if writesInBackground {
            pending = BackgroundRun(close)
        } else {
            _ = try close()
        }
        return chunkRuns
    }

    /// Writes what is buffered as a last run (when anything is) and returns every run file, each
    /// written in full.
    package func finish() throws -> [String] {
        if !buffer.isEmpty { try spill() }
        try finishPending()
        return runs
    }

    /// Writes the buffered fragments as the next run: here, or on a thread of its own once the
    /// run before it is written.
    private func spill() throws {
        let path = nextRunPath()
        let fragments = buffer
        let measuring = measuresRuns
        buffer = []
        buffered = 0
        if writesInBackground {
            try finishPending()
            runs.append(path)
            pending = BackgroundRun { try Self.writeRun(fragments, to: path, measuring: measuring) }
        } else {
            runs.append(path)
            if let run = try Self.writeRun(fragments, to: path, measuring: measuring) { chunkMeasured.append(run) }
        }
    }

    /// The file of the next run.
    private func nextRunPath() -> String { "\(directory)/\(DatasetLayout.sortedRun(runs.count))" }

    /// Waits for the run being written in the background (or the chunk being closed) and rethrows
    /// what writing it threw.
    private func finishPending() throws {
        guard let run = pending else { return }
        pending = nil
        if let written = try run.wait().get() { chunkMeasured.append(written) }
    }

    /// Writes `fragments` merged into the dataset order as the run file `path`; its size and
    /// SHA-256 when `measuring`.
    ///
    /// A measured run is synced to disk before the checkpoint that lists it is written. Any other
    /// run is scratch and is not synced: its reduce reads it back from the page cache (checking
    /// every block's CRC and the block table), a partition's runs are synced with its staging
    /// area, and a run directory that no checkpoint lists is removed before the dataset is
    /// committed, so its bytes need never reach the disk (docs/scale.md, "Scratch runs").
    private static func writeRun(_ fragments: [RunFragment], to path: String, measuring: Bool) throws -> MeasuredRun? {
        let writer = try AtomicFileWriter(path: path, syncsBeforeRename: measuring)
        var hasher = measuring ? SHA256Hasher() : nil
        func emit(_ bytes: UnsafeRawBufferPointer) throws {
            try writer.write(contiguous: bytes, unbuffered: true)
            hasher?.update(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        }
        try RunFile.magic.withUnsafeBytes(emit)
        // Each block is merged behind room for its header, which is filled in place, and goes to
        // the file in one write, without passing through the writer's buffer.
        let headerBytes = RunFile.headerBytes
        var block = [UInt8](repeating: 0, count: headerBytes)
        block.reserveCapacity(headerBytes + blockTargetBytes + (64 << 10))
        var first: UInt64 = 0
        var last: UInt64 = 0
        var table = RunFile.TableDigest()
        func close() throws {
            guard block.count > headerBytes else { return }
            let payloadCRC = block.withUnsafeBufferPointer { CRC32C.checksum(UnsafeBufferPointer(rebasing: $0[headerBytes...])) }
            let header = RunFile.blockHeader(
                payloadCount: block.count - headerBytes, payloadCRC: payloadCRC, sequence: table.blocks, first: first, last: last)
            block.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: header) }
            table.add(header)
            try block.withUnsafeBytes(emit)
            block.removeLast(block.count - headerBytes)
        }
        var merge = FragmentMerge(fragments)
        while let (fragment, record) = merge.next() {
            if block.count == headerBytes { first = record.sortKey }
            last = record.sortKey
            block.append(contentsOf: fragments[fragment].bytes[record.offset..<(record.offset + record.length)])
            if block.count - headerBytes >= blockTargetBytes { try close() }
        }
        try close()
        try table.trailer().withUnsafeBytes(emit)
        try writer.commit()
        guard var hasher else { return nil }
        return MeasuredRun(path: path, bytes: writer.bytesWritten, sha256: hasher.finalize().hexString)
    }
}

/// One run file written (or one chunk closed) on a thread of its own (``SortedRunWriter``'s
/// background writing).
private final class BackgroundRun: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<SortedRunWriter.MeasuredRun?, any Error>?

    /// Starts `write` on a new thread.
    init(_ write: @escaping @Sendable () throws -> SortedRunWriter.MeasuredRun?) {
        let thread = Thread { [self] in
            let outcome = Result { try write() }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Waits until the run is written; what `write` returned or threw.
    func wait() -> Result<SortedRunWriter.MeasuredRun?, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}

/// The framing of run files (``SortedRunWriter``): magic, blocks, trailer with the block table's
/// digest. ``blockTable(size:readHeader:)`` is the one check of the table every reader makes.
package enum RunFile {
    package static let magic: [UInt8] = Array("SKRUN03\n".utf8)
    package static let headerBytes = 32
    /// The trailer's first bytes.
    static let trailerMagic: [UInt8] = Array("SKRUNEND".utf8)
    /// `SKRUNEND`, the block count, the SHA-256 of the block headers.
    package static let trailerBytes = 48
    /// Largest block payload read: one record of the largest body and strings, or 256 KiB of records.
    package static let maximumBlockBytes = SortedExample.maximumBodyBytes + 2 * SortedExample.maximumStringBytes + 4096

    /// One block of a run file as its table lists it.
    struct Block: Equatable {
        /// Offset of the payload in the file.
        var payloadOffset: Int
        var length: Int
        var crc: UInt32
        var first: UInt64
        var last: UInt64
    }

    /// The block headers in the order they are written, and the trailer they make.
    struct TableDigest {
        private var hasher = SHA256Hasher()
        private(set) var blocks: UInt64 = 0

        mutating func add(_ header: [UInt8]) {
            hasher.update(header)
            blocks += 1
        }

        /// The trailer of a file holding the blocks added (the hasher is finalized).
        mutating func trailer() -> [UInt8] {
            var bytes = RunFile.trailerMagic
            bytes.appendLE(blocks)
            return bytes + hasher.finalize().bytes
        }
    }

    /// The header of a block of `payloadCount` bytes whose CRC-32C is `payloadCRC`: its CRC
    /// covers the sequence number and key range, then the payload.
    static func blockHeader(payloadCount: Int, payloadCRC: UInt32, sequence: UInt64, first: UInt64, last: UInt64) -> [UInt8] {
        var rest: [UInt8] = []
        rest.appendLE(sequence)
        rest.appendLE(first)
        rest.appendLE(last)
        var header: [UInt8] = []
        header.appendLE(UInt32(payloadCount))
        header.appendLE(CRC32C.combine(CRC32C.checksum(rest), payloadCRC, lengthB: payloadCount))
        return header + rest
    }

    /// The payload length, CRC, sequence number and key range of a block header (32 bytes).
    static func parseHeader(_ header: UnsafeRawBufferPointer) -> (length: Int, crc: UInt32, sequence: UInt64, first: UInt64, last: UInt64) {
        (
            Int(UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 0, as: UInt32.self))),
            UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
            UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
            UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        )
    }

    /// The block table of a run file of `size` bytes whose magic was checked, read through
    /// `readHeader(offset, count)` (the bytes at `offset`, or fewer at the end of the file): every
    /// block header in turn, each block's length within the file and `maximumBlockBytes`, its
    /// sequence number equal to its place, its key range ordered and after the previous block's,
    /// then the trailer's block count and digest of the headers. A reordered, repeated, missing or
    /// added block, a cut file and a damaged header are refused here, before any payload is read.
    static func blockTable(size: Int, readHeader: (Int, Int) throws -> [UInt8]) throws -> [Block] {
        guard size >= magic.count + trailerBytes else { throw DatasetError(.runFile, "truncated: the trailer is missing") }
        let trailer = try readHeader(size - trailerBytes, trailerBytes)
        guard trailer.count == trailerBytes, trailer.starts(with: trailerMagic) else {
            throw DatasetError(.runFile, "truncated or damaged: the file does not end with its block table's trailer")
        }
        let declared = trailer.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        let end = size - trailerBytes
        var table = TableDigest()
        var blocks: [Block] = []
        var offset = magic.count
        var previousLast: UInt64?
        while offset < end {
            guard end - offset >= headerBytes, table.blocks < declared else {
                throw DatasetError(.runFile, "truncated or damaged: block \(table.blocks) is not in the block table")
            }
            let header = try readHeader(offset, headerBytes)
            guard header.count == headerBytes else { throw DatasetError(.runFile, "truncated: a block header is cut off") }
            let (length, crc, sequence, first, last) = header.withUnsafeBytes(parseHeader)
            guard sequence == table.blocks else {
                throw DatasetError(
                    .runFile, "block \(table.blocks) carries sequence number \(sequence): blocks are reordered, repeated or missing")
            }
            guard length > 0, length <= maximumBlockBytes, length <= end - offset - headerBytes, first <= last else {
                throw DatasetError(.runFile, "truncated or damaged: block \(sequence) declares \(length) bytes")
            }
            if let previousLast, first < previousLast {
                throw DatasetError(.runFile, "block \(sequence) starts before the previous block's last sort key: blocks are out of order")
            }
            previousLast = last
            table.add(header)
            blocks.append(Block(payloadOffset: offset + headerBytes, length: length, crc: crc, first: first, last: last))
            offset += headerBytes + length
        }
        guard table.blocks == declared else {
            throw DatasetError(
                .runFile, "the block table lists \(declared) blocks and the file holds \(table.blocks): blocks are missing or added")
        }
        guard Array(table.trailer().suffix(32)) == Array(trailer.suffix(32)) else {
            throw DatasetError(
                .runFile, "the block table's SHA-256 does not match the block headers: blocks are reordered, replaced or damaged")
        }
        return blocks
    }

    /// Checks the payload of block number `sequence` against its table entry: the CRC, then every record's framing
    /// (``RunRecord/parse(_:offset:)``) and its sort key inside the header's range and in order.
    /// Returns the number of records.
    static func checkBlock(_ payload: UnsafeRawBufferPointer, _ block: Block, sequence: Int) throws(DatasetError) -> Int {
        let (crc, first, last) = (block.crc, block.first, block.last)
        var keys: [UInt8] = []
        keys.appendLE(UInt64(sequence))
        keys.appendLE(first)
        keys.appendLE(last)
        let computed = payload.withMemoryRebound(to: UInt8.self) { CRC32C.checksum($0, continuing: CRC32C.checksum(keys)) }
        guard computed == crc else { throw DatasetError(.runFile, "a block's CRC-32C does not match its bytes") }
        var offset = 0
        var previous = first
        var count = 0
        while offset < payload.count {
            let record = try RunRecord.parse(payload, offset: &offset)
            guard record.sortKey >= previous, record.sortKey <= last else {
                throw DatasetError(.runFile, "record \(count) of a block is outside the block's sort-key range or out of order")
            }
            previous = record.sortKey
            count += 1
        }
        guard count > 0 else { throw DatasetError(.runFile, "an empty block") }
        return count
    }
}

/// Reads the records of one run file whose sort keys fall in `keys`, front to back: the block
/// table is checked when the file is opened (``RunFile/blockTable(size:readHeader:)``), blocks
/// wholly outside the range are skipped by their headers (never read), and each block read is
/// checked (``RunFile/checkBlock(_:_:sequence:)``) before its records are handed out. At most one
/// block is held at a time, and none between ``advance()`` announcing a block and
/// ``loadPendingBlock()`` reading it; a ``RunRecord`` stays valid until the next call of either.
package final class RunRangeReader {
    let path: String
    private let descriptor: FileDescriptor
    private let size: Int
    private let keys: ClosedRange<UInt64>
    private var table: [RunFile.Block] = []
    private var nextBlock = 0
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
            throw DatasetError(.runFile, "cannot read run file \(path): \(systemErrorText(error))")
        }
        var magic = [UInt8](repeating: 0, count: RunFile.magic.count)
        let opened = descriptor
        let read = try? magic.withUnsafeMutableBytes { try opened.read(fromAbsoluteOffset: 0, into: $0) }
        guard read == magic.count, magic == RunFile.magic else {
            try? opened.close()
            throw DatasetError(.runFile, "\(path) is not a sketchprep run file of this version (wrong header); re-run its map side")
        }
        do {
            table = try RunFile.blockTable(size: size) { offset, count in
                var bytes = [UInt8](repeating: 0, count: count)
                let got = try bytes.withUnsafeMutableBytes {
                    try opened.read(fromAbsoluteOffset: Int64(offset), into: $0, retryOnInterrupt: true)
                }
                return Array(bytes.prefix(got))
            }
        } catch let error as DatasetError {
            try? opened.close()
            throw DatasetError(.runFile, "\(path) is not a valid run file (\(error.description)); re-run its map side")
        } catch {
            try? opened.close()
            throw DatasetError(.runFile, "cannot read run file \(path): \(systemErrorText(error))")
        }
    }

    deinit {
        storage.deallocate()
        try? descriptor.close()
    }

    /// Where a reader stands: at a record, before a block not read yet (whose records are all at or
    /// after `sortKey`), or at the end of its range.
    package enum Head {
        case record(RunRecord)
        case block(sortKey: UInt64)
        case end
    }

    /// The next record of the block held, or, once it is used up, the next block of the range
    /// without reading it (`.block` with its first sort key): a block is read only when the merge
    /// reaches its keys (``loadPendingBlock()``), so the blocks held at once are those the merge
    /// position lies in, not one per run. A block larger than the usual storage is released
    /// as soon as its records are used.
    package func advance() throws -> Head {
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
                    return .end
                }
                return .record(record)
            }
            block = UnsafeRawBufferPointer(start: nil, count: 0)
            blockOffset = 0
            if storage.count > Self.keptStorageBytes {
                storage.deallocate()
                storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            }
            while nextBlock < table.count, table[nextBlock].last < keys.lowerBound { nextBlock += 1 }
            guard nextBlock < table.count, table[nextBlock].first <= keys.upperBound else {
                done = true
                return .end
            }
            return .block(sortKey: max(table[nextBlock].first, keys.lowerBound))
        }
        return .end
    }

    /// Reads and checks the block ``advance()`` announced, then returns the first record of it in
    /// the range (or what follows, as ``advance()``).
    package func loadPendingBlock() throws -> Head {
        try loadBlock()
        return try advance()
    }

    /// Storage kept between blocks: a block larger than this (one large example) gets storage of
    /// its own, released once its records are used.
    static let keptStorageBytes = SortedRunWriter.blockTargetBytes * 2

    private func invalid(_ detail: String) -> DatasetError {
        DatasetError(.runFile, "\(path) is not a valid run file (\(detail)); re-run its map side")
    }

    /// Reads and checks the block `table[nextBlock]` (``advance()`` has skipped the blocks outside
    /// the range).
    private func loadBlock() throws {
        block = UnsafeRawBufferPointer(start: nil, count: 0)
        blockOffset = 0
        guard nextBlock < table.count else {
            done = true
            return
        }
        let entry = table[nextBlock]
        let sequence = nextBlock
        nextBlock += 1
        if storage.count < entry.length {
            storage.deallocate()
            storage = .allocate(byteCount: max(entry.length, Self.keptStorageBytes), alignment: 8)
        }
        let payload = UnsafeMutableRawBufferPointer(rebasing: storage[0..<entry.length])
        do {
            let got = try descriptor.read(fromAbsoluteOffset: Int64(entry.payloadOffset), into: payload, retryOnInterrupt: true)
            guard got == entry.length else { throw invalid("truncated: a block is cut off") }
        } catch let error as DatasetError {
            throw error
        } catch {
            throw DatasetError(.runFile, "cannot read run file \(path): \(systemErrorText(error))")
        }
        do {
            _ = try RunFile.checkBlock(UnsafeRawBufferPointer(payload), entry, sequence: sequence)
        } catch {
            throw invalid(error.description)
        }
        block = UnsafeRawBufferPointer(payload)
    }
}

/// The reduce side's k-way merge of sorted runs into one stream in dataset order, over the sort
/// keys `keys`. A run's next block is read only when the merge reaches its first key
/// (``RunRangeReader/advance()``), so memory is the blocks the merge position lies in (one per
/// run whose keys overlap there), not one per run: runs of one large example each (rasters at the
/// largest size) hold one example at a time. The record returned stays valid until the next call.
package struct RunMerge {
    private var readers: [RunRangeReader]
    private var heads: [RunRangeReader.Head]
    /// Reader indices by their head.
    private var heap = SourceHeap()
    /// The reader whose head was handed out last (advanced on the next call).
    private var handedOut: Int?

    package init(runs: [String], keys: ClosedRange<UInt64> = 0...UInt64.max) throws {
        readers = try runs.map { try RunRangeReader(path: $0, keys: keys) }
        heads = try readers.map { try $0.advance() }
        for source in readers.indices { push(source) }
    }

    /// The next record in dataset order, or nil when every run is exhausted.
    package mutating func next() throws -> RunRecord? {
        if let source = handedOut {
            handedOut = nil
            heads[source] = try readers[source].advance()
            popRoot()
            push(source)
        }
        while let source = heap.first {
            switch heads[source] {
            case .record(let record):
                handedOut = source
                return record
            case .block:
                popRoot()
                heads[source] = try readers[source].loadPendingBlock()
                push(source)
            case .end:
                popRoot()
            }
        }
        return nil
    }

    /// Heap order: by sort key; at one key a block not read yet comes first (it may hold a record
    /// that precedes), then records in dataset order, then by run.
    private static func less(_ a: Int, _ b: Int, _ heads: [RunRangeReader.Head]) -> Bool {
        switch (heads[a], heads[b]) {
        case let (.record(x), .record(y)):
            if RunRecord.precedes(x, y) { return true }
            if RunRecord.precedes(y, x) { return false }
            return a < b
        case let (.record(x), .block(key)): return x.sortKey < key
        case let (.block(key), .record(y)): return key <= y.sortKey
        case let (.block(x), .block(y)): return x != y ? x < y : a < b
        default: return false
        }
    }

    private mutating func push(_ source: Int) {
        if case .end = heads[source] { return }
        heap.push(source) { [heads] in Self.less($0, $1, heads) }
    }

    private mutating func popRoot() {
        heap.removeFirst { [heads] in Self.less($0, $1, heads) }
    }
}
