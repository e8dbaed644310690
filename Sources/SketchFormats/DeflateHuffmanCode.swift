/// Dynamic-Huffman block parts shared by the tool's own deflate encoders (``HuffmanOnlyDeflate``,
/// ``ScanlineDeflate``): length-limited canonical codes and the block header that sends their
/// lengths (RFC 1951, 3.2.7). Scratch memory for up to 288 symbols, reused across calls. Not
/// thread-safe: one per encoder.
package final class DeflateHuffmanCode {
    /// Most symbols a code is built for (the literal/length alphabet).
    static let maximumSymbols = 288
    static let codeLengthSymbols = 19
    /// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private let lengthFrequencies: UnsafeMutablePointer<Int>
    private let lengthLengths: UnsafeMutablePointer<UInt8>
    private let lengthCodes: UnsafeMutablePointer<UInt32>
    /// The run-length coded code lengths: symbol (0…18) in the low byte, extra bits above.
    private let runs: UnsafeMutablePointer<UInt16>
    private var runCount = 0
    private var sentLengths = 0
    /// Tree building: symbols sorted by frequency (`frequency << 9 | symbol`), the sort's second
    /// buffer and digit counts, node weights, parents, depths.
    private let sorted: UnsafeMutablePointer<Int>
    private let spare: UnsafeMutablePointer<Int>
    private let buckets: UnsafeMutablePointer<Int>
    private let weights: UnsafeMutablePointer<Int>
    private let parents: UnsafeMutablePointer<Int>
    private let depths: UnsafeMutablePointer<Int>
    /// Codes per length (0…15), and the next canonical code per length.
    private let lengthCounts: UnsafeMutablePointer<Int>
    private let nextCodes: UnsafeMutablePointer<Int>

    package init() {
        let nodes = 2 * Self.maximumSymbols
        lengthFrequencies = .allocate(capacity: Self.codeLengthSymbols)
        lengthLengths = .allocate(capacity: Self.codeLengthSymbols)
        lengthCodes = .allocate(capacity: Self.codeLengthSymbols)
        runs = .allocate(capacity: Self.maximumSymbols + 32)
        sorted = .allocate(capacity: Self.maximumSymbols)
        spare = .allocate(capacity: Self.maximumSymbols)
        buckets = .allocate(capacity: 256)
        weights = .allocate(capacity: nodes)
        parents = .allocate(capacity: nodes)
        depths = .allocate(capacity: nodes)
        lengthCounts = .allocate(capacity: 16)
        nextCodes = .allocate(capacity: 16)
    }

    deinit {
        lengthFrequencies.deallocate()
        lengthLengths.deallocate()
        lengthCodes.deallocate()
        runs.deallocate()
        sorted.deallocate()
        spare.deallocate()
        buckets.deallocate()
        weights.deallocate()
        parents.deallocate()
        depths.deallocate()
        lengthCounts.deallocate()
        nextCodes.deallocate()
    }

    /// Prepares the header of a dynamic block whose literal/length code lengths are
    /// `lengths[0..<literalCount]` (257…286) and distance code lengths follow them,
    /// `lengths[literalCount..<literalCount + distanceCount]` (1…30); returns the header's size in
    /// bits after the 3-bit block type (HLIT, HDIST, HCLEN, the code-length code, the lengths).
    func prepareHeader(lengths: UnsafePointer<UInt8>, literalCount: Int, distanceCount: Int) -> Int {
        runCount = encodeRuns(lengths, count: literalCount + distanceCount)
        lengthFrequencies.update(repeating: 0, count: Self.codeLengthSymbols)
        for index in 0..<runCount { lengthFrequencies[Int(runs[index] & 0xFF)] += 1 }
        build(lengthFrequencies, count: Self.codeLengthSymbols, limit: 7, lengths: lengthLengths, codes: lengthCodes)
        sentLengths = Self.codeLengthSymbols
        while sentLengths > 4 && lengthLengths[Self.codeLengthOrder[sentLengths - 1]] == 0 { sentLengths -= 1 }
        var bits = 14 + 3 * sentLengths
        for symbol in 0..<Self.codeLengthSymbols {
            bits += lengthFrequencies[symbol] * (Int(lengthLengths[symbol]) + Self.extraBits(symbol))
        }
        return bits
    }

    /// Writes the header prepared by the last ``prepareHeader(lengths:literalCount:distanceCount:)``.
    func writeHeader(literalCount: Int, distanceCount: Int, to writer: inout DeflateBitWriter) {
        writer.put(UInt32(literalCount - 257), 5)
        writer.put(UInt32(distanceCount - 1), 5)
        writer.put(UInt32(sentLengths - 4), 4)
        for index in 0..<sentLengths { writer.put(UInt32(lengthLengths[Self.codeLengthOrder[index]]), 3) }
        for index in 0..<runCount {
            let symbol = Int(runs[index] & 0xFF)
            writer.put(lengthCodes[symbol], Int(lengthLengths[symbol]))
            writer.put(UInt32(runs[index] >> 8), Self.extraBits(symbol))
        }
    }

    /// Extra bits after a code-length symbol: 16 repeats the previous length 3–6 times, 17 and
    /// 18 give 3–10 and 11–138 zeros.
    private static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    /// Run-length codes the `total` code lengths into `runs`; returns how many.
    private func encodeRuns(_ lengths: UnsafePointer<UInt8>, count total: Int) -> Int {
        var count = 0
        func emit(_ symbol: Int, extra: Int = 0) {
            runs[count] = UInt16(symbol | extra << 8)
            count += 1
        }
        var start = 0
        while start < total {
            let length = Int(lengths[start])
            var end = start + 1
            while end < total && Int(lengths[end]) == length { end += 1 }
            var run = end - start
            if length == 0 {
                while run >= 11 {
                    let taken = min(run, 138)
                    emit(18, extra: taken - 11)
                    run -= taken
                }
                if run >= 3 {
                    emit(17, extra: run - 3)
                    run = 0
                }
            } else {
                emit(length)
                run -= 1
                while run >= 3 {
                    let taken = min(run, 6)
                    emit(16, extra: taken - 3)
                    run -= taken
                }
            }
            for _ in 0..<run { emit(length) }
            start = end
        }
        return count
    }

    /// A Huffman code, at most `limit` bits, for the `count` (at most 288) symbols of
    /// `frequencies`: its lengths into `lengths` (0 for unused symbols) and its canonical codes
    /// (RFC 1951, 3.2.2), bit-reversed for LSB-first output, into `codes`. The code is complete
    /// when any symbol is used: at least two symbols get a code (an unused one gets a code when
    /// only one is used), as zlib's inflate requires.
    func build(
        _ frequencies: UnsafePointer<Int>, count: Int, limit: Int, lengths: UnsafeMutablePointer<UInt8>,
        codes: UnsafeMutablePointer<UInt32>
    ) {
        lengths.update(repeating: 0, count: count)
        var used = 0
        var largest = 0
        for symbol in 0..<count where frequencies[symbol] > 0 {
            sorted[used] = frequencies[symbol] << 9 | symbol
            largest = max(largest, frequencies[symbol])
            used += 1
        }
        // Radix sort by frequency, 8 bits a pass from the lowest (one pass for fragments' counts
        // below 256); stable, so equal frequencies stay in symbol order.
        var source = sorted
        var target = spare
        var shift = 9
        while largest >> (shift - 9) > 0 {
            buckets.update(repeating: 0, count: 256)
            for index in 0..<used { buckets[source[index] >> shift & 0xFF] += 1 }
            var total = 0
            for digit in 0..<256 {
                let bucket = buckets[digit]
                buckets[digit] = total
                total += bucket
            }
            for index in 0..<used {
                let digit = source[index] >> shift & 0xFF
                target[buckets[digit]] = source[index]
                buckets[digit] += 1
            }
            swap(&source, &target)
            shift += 8
        }
        if source != sorted { sorted.update(from: source, count: used) }
        if used == 0 { return }
        if used == 1 {
            // A second, unused symbol (frequency 0 sorts first) makes the one-bit code complete.
            sorted[1] = sorted[0]
            sorted[0] = sorted[1] & 0x1FF == 0 ? 1 : 0
            used = 2
        }
        // Two-queue Huffman: leaves 0..<used in ascending weight, internal nodes after them in
        // the order made (so also ascending); a node's parent has a higher index.
        for leaf in 0..<used { weights[leaf] = sorted[leaf] >> 9 }
        var nextLeaf = 0
        var nextNode = used
        func lightest(before made: Int) -> Int {
            if nextLeaf < used && (nextNode >= made || weights[nextLeaf] <= weights[nextNode]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextNode += 1
            return nextNode - 1
        }
        let root = 2 * used - 2
        for made in used...root {
            let first = lightest(before: made)
            let second = lightest(before: made)
            weights[made] = weights[first] + weights[second]
            parents[first] = made
            parents[second] = made
        }
        depths[root] = 0
        lengthCounts.update(repeating: 0, count: limit + 1)
        for node in stride(from: root - 1, through: 0, by: -1) {
            depths[node] = depths[parents[node]] + 1
            if node < used { lengthCounts[min(depths[node], limit)] += 1 }
        }
        // Codes deeper than `limit` were counted at `limit`, overfilling the code space (Kraft
        // sum above 1); move one code from the deepest level into a split of the longest shorter
        // one until it is full again (miniz's length limiting).
        var space = 0
        for length in 1...limit { space += lengthCounts[length] << (limit - length) }
        while space > 1 << limit {
            lengthCounts[limit] -= 1
            for length in stride(from: limit - 1, through: 1, by: -1) where lengthCounts[length] > 0 {
                lengthCounts[length] -= 1
                lengthCounts[length + 1] += 2
                break
            }
            space -= 1
        }
        // Shortest codes to the most frequent symbols.
        var leaf = used - 1
        for length in 1...limit {
            for _ in 0..<lengthCounts[length] {
                lengths[sorted[leaf] & 0x1FF] = UInt8(length)
                leaf -= 1
            }
        }
        Self.assignCodes(lengths: lengths, count: count, codes: codes, lengthCounts: lengthCounts, nextCodes: nextCodes)
    }

    /// The canonical codes (RFC 1951, 3.2.2), bit-reversed, of the code lengths `lengths[0..<count]`
    /// (at most 15); `lengthCounts` and `nextCodes` are 16-entry scratch.
    static func assignCodes(
        lengths: UnsafePointer<UInt8>, count: Int, codes: UnsafeMutablePointer<UInt32>,
        lengthCounts: UnsafeMutablePointer<Int>, nextCodes: UnsafeMutablePointer<Int>
    ) {
        lengthCounts.update(repeating: 0, count: 16)
        for symbol in 0..<count { lengthCounts[Int(lengths[symbol])] += 1 }
        var code = 0
        lengthCounts[0] = 0
        for length in 1...15 {
            code = (code + lengthCounts[length - 1]) << 1
            nextCodes[length] = code
        }
        for symbol in 0..<count where lengths[symbol] > 0 {
            let length = Int(lengths[symbol])
            codes[symbol] = reversed(UInt32(nextCodes[length]), length: length)
            nextCodes[length] += 1
        }
    }

    /// The `length` (at most 16) low bits of `code` in reverse order.
    private static func reversed(_ code: UInt32, length: Int) -> UInt32 {
        var code = code
        code = (code & 0x5555) << 1 | (code >> 1) & 0x5555
        code = (code & 0x3333) << 2 | (code >> 2) & 0x3333
        code = (code & 0x0F0F) << 4 | (code >> 4) & 0x0F0F
        code = (code & 0x00FF) << 8 | (code >> 8) & 0x00FF
        return code >> (16 - length)
    }
}

/// Bits packed least significant first, as deflate sends them, into memory already allocated.
struct DeflateBitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var written = 0
    private var bits: UInt64 = 0
    private var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Appends the `length` (at most 32) low bits of `value`; whole 32-bit words go out as they fill.
    mutating func put(_ value: UInt32, _ length: Int) {
        bits |= UInt64(value) << count
        count += length
        if count >= 32 {
            UnsafeMutableRawPointer(base + written).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
            written += 4
            bits >>= 32
            count -= 32
        }
    }

    /// Writes the bits left, the last byte padded with zero bits.
    mutating func flush() {
        while count > 0 {
            base[written] = UInt8(truncatingIfNeeded: bits)
            written += 1
            bits >>= 8
            count -= 8
        }
        bits = 0
        count = 0
    }

    /// Copies `bytes` after a ``flush()``.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + written).update(from: source, count: bytes.count)
        written += bytes.count
    }
}
