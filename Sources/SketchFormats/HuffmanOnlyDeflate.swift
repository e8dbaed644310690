/// Raw deflate of a byte buffer by Huffman codes alone, as one block ended byte-aligned like
/// zlib's sync flush (an empty stored block, no final-block bit), so pieces concatenate
/// (``DeflateFragmentEncoder``'s `.huffmanOnly`). The block is a dynamic-Huffman block of literals
/// (codes built for the buffer, at most 15 bits, code-length codes at most 7, both complete; no
/// distance codes), or a stored block where that is smaller (at most 65,535 bytes; it ends
/// byte-aligned and needs no empty block after it). A fixed-Huffman block of literals is never
/// smaller than a stored one (8 or 9 bits a byte), so it is not considered. Same input, same bytes.
///
/// Why not zlib (`Z_HUFFMAN_ONLY`) or libdeflate: sketch-rnn fragments average about 250 bytes,
/// and zlib's fixed cost per piece (clearing its 64 KiB hash table on reset, three trees over
/// 286/30/19 symbols) made it 8 to 8.6 µs a fragment, the map side 38 % slower (docs/scale.md,
/// "Reduce side"); libdeflate always ends its output with a final block, which nothing can
/// follow. This encoder builds the one tree a literal-only block needs, in scratch memory reused
/// across calls: no allocation per call but the output's growth. Not thread-safe: one per thread.
package final class HuffmanOnlyDeflate {
    /// Literal/length symbols written: the 256 byte values and end-of-block (HLIT = 257).
    private static let literals = 257
    private static let endOfBlock = 256
    private static let codeLengthSymbols = 19
    /// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    /// Stored blocks hold at most this many bytes.
    private static let storedLimit = 0xFFFF

    /// Literal/length symbol counts; during counting, the odd bytes' counts follow them.
    private let frequencies: UnsafeMutablePointer<Int>
    /// Literal/length code lengths, then the one (zero) distance code length.
    private let lengths: UnsafeMutablePointer<UInt8>
    private let codes: UnsafeMutablePointer<UInt32>
    private let lengthFrequencies: UnsafeMutablePointer<Int>
    private let lengthLengths: UnsafeMutablePointer<UInt8>
    private let lengthCodes: UnsafeMutablePointer<UInt32>
    /// The run-length coded code lengths: symbol (0…18) in the low byte, extra bits above.
    private let runs: UnsafeMutablePointer<UInt16>
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
        let nodes = 2 * Self.literals
        frequencies = .allocate(capacity: 2 * Self.literals)
        lengths = .allocate(capacity: Self.literals + 1)
        codes = .allocate(capacity: Self.literals)
        lengthFrequencies = .allocate(capacity: Self.codeLengthSymbols)
        lengthLengths = .allocate(capacity: Self.codeLengthSymbols)
        lengthCodes = .allocate(capacity: Self.codeLengthSymbols)
        runs = .allocate(capacity: Self.literals + 1)
        sorted = .allocate(capacity: Self.literals)
        spare = .allocate(capacity: Self.literals)
        buckets = .allocate(capacity: 256)
        weights = .allocate(capacity: nodes)
        parents = .allocate(capacity: nodes)
        depths = .allocate(capacity: nodes)
        lengthCounts = .allocate(capacity: 16)
        nextCodes = .allocate(capacity: 16)
    }

    deinit {
        frequencies.deallocate()
        lengths.deallocate()
        codes.deallocate()
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

    /// Appends to `out` the raw deflate of `input`: one non-final block, ending byte-aligned.
    package func append(_ input: [UInt8], to out: inout [UInt8]) {
        input.withUnsafeBufferPointer { append($0, to: &out) }
    }

    private func append(_ input: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if input.isEmpty {
            appendStored(input, to: &out)
            return
        }
        // Even and odd bytes counted apart (int16 values repeat their high byte every other
        // byte), so consecutive counts of one value seldom wait on each other.
        frequencies.update(repeating: 0, count: 2 * Self.literals)
        let odd = frequencies + Self.literals
        var index = 1
        while index < input.count {
            frequencies[Int(input[index - 1])] += 1
            odd[Int(input[index])] += 1
            index += 2
        }
        if index == input.count { frequencies[Int(input[index - 1])] += 1 }
        for symbol in 0..<256 { frequencies[symbol] += odd[symbol] }
        frequencies[Self.endOfBlock] = 1
        buildCode(frequencies, count: Self.literals, limit: 15, lengths: lengths, codes: codes)
        lengths[Self.literals] = 0
        let runCount = encodeRuns()
        lengthFrequencies.update(repeating: 0, count: Self.codeLengthSymbols)
        for index in 0..<runCount { lengthFrequencies[Int(runs[index] & 0xFF)] += 1 }
        buildCode(lengthFrequencies, count: Self.codeLengthSymbols, limit: 7, lengths: lengthLengths, codes: lengthCodes)
        var sentLengths = Self.codeLengthSymbols
        while sentLengths > 4 && lengthLengths[Self.codeLengthOrder[sentLengths - 1]] == 0 { sentLengths -= 1 }

        // Block header, HLIT, HDIST, HCLEN, the code-length code, the run-length coded lengths, the literals.
        var dynamicBits = 3 + 14 + 3 * sentLengths
        for symbol in 0..<Self.codeLengthSymbols {
            dynamicBits += lengthFrequencies[symbol] * (Int(lengthLengths[symbol]) + Self.extraBits(symbol))
        }
        for symbol in 0..<Self.literals where frequencies[symbol] > 0 {
            dynamicBits += frequencies[symbol] * Int(lengths[symbol])
        }
        // The Huffman block is followed by the 3-bit header of an empty stored block, padding and its 4 bytes.
        let size = (dynamicBits + 3 + 7) / 8 + 4
        if input.count <= Self.storedLimit && input.count + 5 < size {
            appendStored(input, to: &out)
            return
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: size))
        out.withUnsafeMutableBufferPointer { buffer in
            var writer = BitWriter(buffer.baseAddress! + start)
            writer.put(0b100, 3)  // not final, dynamic Huffman
            writer.put(0, 5)  // HLIT - 257
            writer.put(0, 5)  // HDIST - 1
            writer.put(UInt32(sentLengths - 4), 4)
            for index in 0..<sentLengths { writer.put(UInt32(lengthLengths[Self.codeLengthOrder[index]]), 3) }
            for index in 0..<runCount {
                let symbol = Int(runs[index] & 0xFF)
                writer.put(lengthCodes[symbol], Int(lengthLengths[symbol]))
                writer.put(UInt32(runs[index] >> 8), Self.extraBits(symbol))
            }
            for byte in input { writer.put(codes[Int(byte)], Int(lengths[Int(byte)])) }
            writer.put(codes[Self.endOfBlock], Int(lengths[Self.endOfBlock]))
            // The empty stored block that ends byte-aligned: not final, stored, padding, 00 00 FF FF.
            writer.put(0, 3)
            writer.flush()
            writer.put(0xFFFF_0000, 32)
            precondition(writer.written == size, "Huffman-only block size miscounted")
        }
    }

    /// A stored block of `input` (at most ``storedLimit`` bytes), from a byte boundary.
    private func appendStored(_ input: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let length = UInt16(input.count)
        out.append(0)
        out.append(UInt8(length & 0xFF))
        out.append(UInt8(length >> 8))
        out.append(UInt8(~length & 0xFF))
        out.append(UInt8(~length >> 8))
        out += input
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

    /// Run-length codes the 258 code lengths (literal/length, then distance) into `runs`; returns how many.
    private func encodeRuns() -> Int {
        let total = Self.literals + 1
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

    /// A Huffman code, at most `limit` bits, for the `count` symbols of `frequencies`: its
    /// lengths into `lengths` (0 for unused symbols) and its canonical codes (RFC 1951, 3.2.2),
    /// bit-reversed for LSB-first output, into `codes`. The code is complete: at least two
    /// symbols get a code (an unused one gets a code when only one is used), as zlib's inflate
    /// requires.
    private func buildCode(
        _ frequencies: UnsafeMutablePointer<Int>, count: Int, limit: Int, lengths: UnsafeMutablePointer<UInt8>,
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
        var code = 0
        lengthCounts[0] = 0
        for length in 1...limit {
            code = (code + lengthCounts[length - 1]) << 1
            nextCodes[length] = code
        }
        for symbol in 0..<count where lengths[symbol] > 0 {
            let length = Int(lengths[symbol])
            codes[symbol] = Self.reversed(UInt32(nextCodes[length]), length: length)
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
private struct BitWriter {
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
}
