/// Examples as run-file records (``SortedExample/serialize(into:)``) with their dataset order
/// (``SortedExample/precedes(_:_:)``): what a map-side worker makes of one batch, so that the run
/// writer (``SortedRunWriter/add(_:)``) only merges sorted fragments and copies their bytes,
/// instead of sorting and serializing every example on the thread that feeds it.
package struct RunFragment: Sendable {
    /// The records, in the order they were appended.
    private(set) var bytes: [UInt8] = []
    /// Each record's place in ``bytes``, in dataset order once ``sort()`` has run.
    private(set) var order: [Entry] = []
    /// Whether ``order`` is the dataset order.
    private(set) var isSorted = true

    /// One record: its sort key, and where its bytes lie in ``bytes``.
    struct Entry: Sendable {
        var sortKey: UInt64
        var offset: Int
        var length: Int
    }

    /// An empty fragment.
    package init() {}

    /// `examples` as one sorted fragment.
    package init(_ examples: [SortedExample]) {
        for example in examples { append(example) }
        sort()
    }

    /// Records held.
    package var count: Int { order.count }

    /// Memory the fragment holds, counted against the run writer's budget: its records' bytes and
    /// their order entries.
    package var footprint: Int { bytes.count + order.count * MemoryLayout<Entry>.stride }

    /// Appends `example` as a run-file record.
    package mutating func append(_ example: SortedExample) {
        let offset = bytes.count
        example.serialize(into: &bytes)
        if let last = order.last, last.sortKey >= example.sortKey { isSorted = false }
        order.append(Entry(sortKey: example.sortKey, offset: offset, length: bytes.count - offset))
    }

    /// Puts ``order`` in dataset order (nothing to do when the records came in that order).
    package mutating func sort() {
        guard !isSorted else { return }
        var sorted = order
        bytes.withUnsafeBytes { raw in sorted.sort { Self.precedes($0, in: raw, $1, in: raw) } }
        order = sorted
        isSorted = true
    }

    /// The dataset order of record `a` of `x` and record `b` of `y` (``SortedExample/precedes(_:_:)``
    /// read from the records' bytes: sort key, key_id bytes, chunk, position in the chunk).
    static func precedes(_ a: Entry, in x: UnsafeRawBufferPointer, _ b: Entry, in y: UnsafeRawBufferPointer) -> Bool {
        if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
        let (keyA, chunkA, ordinalA) = tieBreak(a, in: x)
        let (keyB, chunkB, ordinalB) = tieBreak(b, in: y)
        let order = RunRecord.compareBytes(keyA, keyB)
        if order != 0 { return order < 0 }
        if chunkA != chunkB { return chunkA < chunkB }
        return ordinalA < ordinalB
    }

    /// The key_id, chunk and ordinal of a record this type serialized (its layout is
    /// ``SortedExample/serialize(into:)``'s, so it is not checked again).
    private static func tieBreak(_ entry: Entry, in bytes: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, UInt32, UInt64) {
        let start = entry.offset + 4
        let rank = Int(bytes[start + 23])
        let keyLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 28, as: UInt32.self)))
        let keyStart = start + SortedExample.fixedBytes + 4 * rank
        return (
            UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyLength)]),
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)),
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 12, as: UInt64.self))
        )
    }
}

/// The records of sorted fragments in dataset order: a k-way merge by a min-heap of the
/// fragments' next records, `O(log k)` comparisons per record.
struct FragmentMerge {
    private let fragments: [RunFragment]
    /// Per fragment, its next record's position in its order.
    private var positions: [Int]
    /// Fragment indices by their next record.
    private var heap = SourceHeap()

    init(_ fragments: [RunFragment]) {
        self.fragments = fragments
        positions = Array(repeating: 0, count: fragments.count)
        for index in fragments.indices where fragments[index].count > 0 {
            heap.push(index) { [positions] in Self.less($0, $1, fragments, positions) }
        }
    }

    /// The next record: its fragment and entry, or nil when every fragment is used up.
    mutating func next() -> (fragment: Int, entry: RunFragment.Entry)? {
        guard let source = heap.first else { return nil }
        let entry = fragments[source].order[positions[source]]
        positions[source] += 1
        let (fragments, positions) = (fragments, positions)
        let less = { Self.less($0, $1, fragments, positions) }
        if positions[source] < fragments[source].count {
            heap.firstMoved(by: less)
        } else {
            heap.removeFirst(by: less)
        }
        return (source, entry)
    }

    /// Whether fragment `a`'s next record precedes fragment `b`'s (the lower fragment on a tie,
    /// which cannot happen between distinct records).
    private static func less(_ a: Int, _ b: Int, _ fragments: [RunFragment], _ positions: [Int]) -> Bool {
        let x = fragments[a].order[positions[a]]
        let y = fragments[b].order[positions[b]]
        if x.sortKey != y.sortKey { return x.sortKey < y.sortKey }
        return fragments[a].bytes.withUnsafeBytes { rawA in
            fragments[b].bytes.withUnsafeBytes { rawB in
                if RunFragment.precedes(x, in: rawA, y, in: rawB) { return true }
                if RunFragment.precedes(y, in: rawB, x, in: rawA) { return false }
                return a < b
            }
        }
    }
}
