extension NumpyObjectArrayPickle {
    /// One array of a pickle in the writer's layout (``storedArrays(_:)``): its shape and where its
    /// little-endian values lie in the pickle.
    package struct StoredArray: Sendable, Equatable {
        /// Rows of the array.
        package var rows: Int
        /// Columns of the array.
        package var columns: Int
        /// The byte range of its values in the pickle (`rows × columns` int16 or float64).
        package var values: Range<Int>
    }

    /// The arrays of `pickle` when it is, byte for byte, what this type writes (``preamble(count:)``,
    /// per array ``appendArrayPrefix(index:count:rows:columns:float64:to:)``, a tail as
    /// ``appendArrayTail(rawValues:to:)`` makes it and ``appendArraySuffix(index:count:to:)``, then
    /// ``trailer``): the layout of the published sketch-rnn files, int16 or float64, within
    /// ``maximumValueCount``. Their values stay in place, not converted; ``decode(_:)`` gives the
    /// same arrays for such a pickle. Nil for any other pickle (``decode(_:)`` reads it, or says why not).
    package static func storedArrays(_ pickle: UnsafeBufferPointer<UInt8>) -> (isFloat64: Bool, arrays: [StoredArray])? {
        var walk = StoredLayoutWalk(pickle)
        return walk.arrays()
    }

    /// The offset of the array count's integer in ``preamble(count:)`` (the bytes before it do
    /// not depend on the count).
    fileprivate static let countOffset: Int = {
        let (zero, other) = (preamble(count: 0), preamble(count: 300))
        return zero.indices.first { zero[$0] != other[$0] } ?? zero.count
    }()
}

/// The walk of ``NumpyObjectArrayPickle/storedArrays(_:)``: each piece the writer would make,
/// made again from the integers read and compared with the pickle's bytes.
private struct StoredLayoutWalk {
    let pickle: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The pieces made again, reused from array to array.
    var expected: [UInt8] = []

    init(_ pickle: UnsafeBufferPointer<UInt8>) {
        self.pickle = pickle
        expected.reserveCapacity(64)
    }

    mutating func arrays() -> (isFloat64: Bool, arrays: [NumpyObjectArrayPickle.StoredArray])? {
        guard let count = integer(at: NumpyObjectArrayPickle.countOffset), count >= 0,
            matches(NumpyObjectArrayPickle.preamble(count: count))
        else { return nil }
        var arrays: [NumpyObjectArrayPickle.StoredArray] = []
        // The count is the pickle's word: reserved only as far as the pickle's bytes can hold
        // arrays (each takes more than 16 bytes).
        arrays.reserveCapacity(min(count, pickle.count / 16))
        var isFloat64 = false
        var values = 0
        for index in 0..<count {
            // Prefix: [MARK] BINGET 1, BINGET 2, the empty array's reduce (8 bytes), the memo PUT,
            // MARK and integer 1, then the shape's two integers.
            let mark = index % 1000 == 0 && min(1000, count - index / 1000 * 1000) > 1 ? 1 : 0
            let put = (index == 0 ? 7 : 8 + index) < 256 ? 2 : 5
            let shapeAt = position + mark + 4 + 8 + put + 3
            guard let rows = integer(at: shapeAt), rows >= 0, let columns = integer(at: shapeAt + width(at: shapeAt)), columns >= 0
            else { return nil }
            if index == 0 {
                guard let float64 = [false, true].first(where: { prefixMatches(index, count, rows, columns, $0) }) else { return nil }
                isFloat64 = float64
            } else if !prefixMatches(index, count, rows, columns, isFloat64) {
                return nil
            }
            // Tail: NEWFALSE, the data as SHORT_BINSTRING (under 256 bytes) or BINSTRING, TUPLE, BUILD.
            // Both below 2³¹ (BININT), so their product fits; checked against the cap before scaling.
            values += rows * columns
            guard values <= NumpyObjectArrayPickle.maximumValueCount, byte(0) == 0x89 else { return nil }
            let size = rows * columns * (isFloat64 ? 8 : 2)
            if size < 256 {
                guard byte(1) == 0x55, byte(2) == UInt8(size) else { return nil }
                position += 3
            } else {
                guard byte(1) == 0x54, position + 6 <= pickle.count,
                    UInt32(littleEndian: UnsafeRawBufferPointer(pickle).loadUnaligned(fromByteOffset: position + 2, as: UInt32.self))
                        == UInt32(size)
                else { return nil }
                position += 6
            }
            guard position + size + 2 <= pickle.count else { return nil }
            arrays.append(.init(rows: rows, columns: columns, values: position..<(position + size)))
            position += size
            guard byte(0) == 0x74, byte(1) == 0x62 else { return nil }
            position += 2
            expected.removeAll(keepingCapacity: true)
            NumpyObjectArrayPickle.appendArraySuffix(index: index, count: count, to: &expected)
            guard matches(expected) else { return nil }
        }
        guard matches(NumpyObjectArrayPickle.trailer), position == pickle.count else { return nil }
        return (isFloat64, arrays)
    }

    /// Whether the array prefix made for these values is the pickle's next bytes (then past them).
    private mutating func prefixMatches(_ index: Int, _ count: Int, _ rows: Int, _ columns: Int, _ float64: Bool) -> Bool {
        expected.removeAll(keepingCapacity: true)
        NumpyObjectArrayPickle.appendArrayPrefix(index: index, count: count, rows: rows, columns: columns, float64: float64, to: &expected)
        return matches(expected)
    }

    /// Whether `bytes` are the pickle's next bytes; moves past them when they are.
    private mutating func matches(_ bytes: [UInt8]) -> Bool {
        guard position + bytes.count <= pickle.count else { return false }
        for (offset, byte) in bytes.enumerated() where pickle[position + offset] != byte { return false }
        position += bytes.count
        return true
    }

    /// The byte `offset` past the position, or nil past the end.
    private func byte(_ offset: Int) -> UInt8? { position + offset < pickle.count ? pickle[position + offset] : nil }

    /// The bytes of the integer opcode at `at` (the writer's BININT1, BININT2 or BININT).
    private func width(at: Int) -> Int {
        switch pickle[at] {
        case 0x4B: return 2
        case 0x4D: return 3
        default: return 5
        }
    }

    /// The integer of the BININT1, BININT2 or BININT opcode at `at` (as ``NumpyObjectArrayPickle/decode(_:)``
    /// reads it), or nil for anything else.
    private func integer(at: Int) -> Int? {
        guard at < pickle.count else { return nil }
        let raw = UnsafeRawBufferPointer(pickle)
        switch pickle[at] {
        case 0x4B where at + 2 <= pickle.count: return Int(pickle[at + 1])
        case 0x4D where at + 3 <= pickle.count: return Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at + 1, as: UInt16.self)))
        case 0x4A where at + 5 <= pickle.count: return Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 1, as: Int32.self)))
        default: return nil
        }
    }
}
