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
/// 286/30/19 symbols) made it 7.9 to 8.6 µs a fragment against this encoder's 4.0 to 4.1, and an
/// encode stage 4.44–5.09 s against 3.36–4.11 (docs/scale.md, "Reduce side"); libdeflate always
/// ends its output with a final block, which nothing can follow. This encoder builds the one tree
/// a literal-only block needs, in scratch memory reused across calls: no allocation per call but
/// the output's growth. Not thread-safe: one per thread.
package final class HuffmanOnlyDeflate {
    /// Literal/length symbols written: the 256 byte values and end-of-block (HLIT = 257).
    private static let literals = 257
    private static let endOfBlock = 256
    /// Stored blocks hold at most this many bytes.
    private static let storedLimit = 0xFFFF

    /// Literal/length symbol counts; during counting, the odd bytes' counts follow them.
    private let frequencies: UnsafeMutablePointer<Int>
    /// Literal/length code lengths, then the one (zero) distance code length.
    private let lengths: UnsafeMutablePointer<UInt8>
    private let codes: UnsafeMutablePointer<UInt32>
    private let huffman = DeflateHuffmanCode()

    package init() {
        frequencies = .allocate(capacity: 2 * Self.literals)
        lengths = .allocate(capacity: Self.literals + 1)
        codes = .allocate(capacity: Self.literals)
    }

    deinit {
        frequencies.deallocate()
        lengths.deallocate()
        codes.deallocate()
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
        huffman.build(frequencies, count: Self.literals, limit: 15, lengths: lengths, codes: codes)
        lengths[Self.literals] = 0

        // Block header, HLIT, HDIST, HCLEN, the code-length code, the run-length coded lengths, the literals.
        var dynamicBits = 3 + huffman.prepareHeader(lengths: lengths, literalCount: Self.literals, distanceCount: 1)
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
            var writer = DeflateBitWriter(buffer.baseAddress! + start)
            writer.put(0b100, 3)  // not final, dynamic Huffman
            huffman.writeHeader(literalCount: Self.literals, distanceCount: 1, to: &writer)
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
}
