import CZlib

/// Inflate (RFC 1951) for streams of many small blocks, as the `.npz` entries sketchprep writes:
/// each stroke-3 array is a dynamic-Huffman block of its own (``HuffmanOnlyDeflate``, about 250
/// bytes), so an entry holds one block per drawing. zlib builds full decoding tables for every
/// block and reads the header's code lengths in its general state machine, which made 65 % of its
/// instructions on such entries (docs/scale.md, "Reduce side"). Here a block's table is sized by
/// its longest code (at most 2⁹ entries, filled by doubling), the codes' counts are taken while
/// their lengths are read, and codes longer than the table are read canonically, bit by bit.
///
/// It decodes stored blocks, fixed-code blocks and dynamic blocks of literals alone (HLIT 257,
/// which sketchprep's writers make), or declines: ``inflate(_:capacity:)`` returns nil for
/// anything it does not take whole (a dynamic block that may send matches, which zlib decodes
/// faster, a code zlib takes only as a special case, data zlib refuses, output past `capacity`,
/// input ending inside a block or inside a byte), and ``RawInflate`` hands such a stream to zlib
/// from its start, so every refusal keeps zlib's status. What it returns is what zlib returns
/// for the same call: the same bytes, status and unused input (`FuzzRawInflate` compares the two
/// on arbitrary bytes).
enum SmallBlockInflate {
    /// The raw deflate stream `deflated` inflated into at most `capacity` bytes, with zlib's
    /// status (`Z_STREAM_END` after a final block, `Z_OK` when the input ends on a block boundary
    /// before one) and the whole bytes after the final block; nil when the stream is left to zlib.
    static func inflate(_ deflated: UnsafeBufferPointer<UInt8>, capacity: Int) -> RawInflate.Result? {
        guard let base = deflated.baseAddress, !deflated.isEmpty, capacity > 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: InflateScratch.units) { memory in
            let scratch = InflateScratch(memory.baseAddress!)
            var outcome: (status: Int32, leftover: Int)? = nil
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
                var out = InflateOutput(output.baseAddress!, capacity: capacity)
                outcome = inflateBlocks(InflateBitReader(base, count: deflated.count), into: &out, scratch)
                initialized = out.count
            }
            guard let (status, leftover) = outcome else { return nil }
            return RawInflate.Result(bytes: bytes, status: status, leftover: leftover)
        }
    }

    /// Every block up to the final one, or to the input's end on a block boundary; nil to decline.
    private static func inflateBlocks(
        _ input: InflateBitReader, into outIn: inout InflateOutput, _ scratch: InflateScratch
    ) -> (Int32, Int)? {
        // Local copies the compiler keeps in registers through the inlined block decoders.
        var reader = input
        var out = outIn
        defer { outIn = out }
        var fixedCodes: (literals: InflateHuffmanCode, distances: InflateHuffmanCode)? = nil
        while true {
            if reader.consumedBits == reader.count * 8 { return (Z_OK, 0) }
            guard let header = reader.take(3) else { return nil }
            let taken: Bool
            switch header >> 1 {
            case 0: taken = stored(&reader, &out)
            case 1: taken = fixed(&reader, &out, scratch, &fixedCodes)
            case 2: taken = dynamic(&reader, &out, scratch)
            default: return nil
            }
            guard taken else { return nil }
            if header & 1 == 1 { return (Z_STREAM_END, reader.count - (reader.consumedBits + 7) / 8) }
        }
    }

    /// A stored block: to the byte boundary, LEN and its complement, LEN bytes.
    private static func stored(_ reader: inout InflateBitReader, _ out: inout InflateOutput) -> Bool {
        reader.alignToByte()
        guard let length = reader.take(16), let complement = reader.take(16), length ^ complement == 0xFFFF else { return false }
        return reader.copyBytes(Int(length), to: &out)
    }

    /// A block in the fixed codes (RFC 1951, 3.2.6), whose tables are built at a stream's first
    /// such block and kept in `codes` for the others (a stream of empty fixed blocks, 10 bits
    /// each, builds them once).
    private static func fixed(
        _ reader: inout InflateBitReader, _ out: inout InflateOutput, _ scratch: InflateScratch,
        _ codes: inout (literals: InflateHuffmanCode, distances: InflateHuffmanCode)?
    ) -> Bool {
        if codes == nil {
            let lengths = scratch.lengths
            for symbol in 0..<288 { lengths[symbol] = symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
            // 32 five-bit distance codes, so complete; 30 and 31 are refused where they are read.
            for symbol in 288..<320 { lengths[symbol] = 5 }
            let (literalMemory, distanceMemory) = (scratch.fixedLiterals, scratch.fixedDistances)
            guard
                let literals = InflateHuffmanCode(
                    lengths, present: InflateHuffmanCode.tally(lengths, count: 288, literalMemory), literalMemory),
                let distances = InflateHuffmanCode(
                    lengths + 288, present: InflateHuffmanCode.tally(lengths + 288, count: 32, distanceMemory), distanceMemory)
            else { return false }
            codes = (literals, distances)
        }
        guard let (literals, distances) = codes else { return false }
        return symbols(&reader, &out, literals: literals, distances: distances)
    }

    /// A dynamic block: its codes (``dynamicCodes(_:_:)``), then its symbols.
    @inline(__always)
    private static func dynamic(_ reader: inout InflateBitReader, _ out: inout InflateOutput, _ scratch: InflateScratch) -> Bool {
        guard let (literals, distances) = dynamicCodes(&reader, scratch) else { return false }
        return symbols(&reader, &out, literals: literals, distances: distances)
    }

    /// A dynamic block's header: its code-length code, then its literal/length and distance code
    /// lengths (nil distances for a block of literals alone); nil to decline.
    private static func dynamicCodes(
        _ readerIn: inout InflateBitReader, _ scratch: InflateScratch
    ) -> (InflateHuffmanCode, InflateHuffmanCode?)? {
        // A local copy the compiler keeps in registers.
        var reader = readerIn
        defer { readerIn = reader }
        guard let counts = reader.take(14) else { return nil }
        let literalCount = Int(counts & 0x1F) + 257
        let distanceCount = Int((counts >> 5) & 0x1F) + 1
        let lengthCodeCount = Int(counts >> 10) + 4
        // A literal/length code past 257 symbols may send matches: such blocks are long (zlib's
        // own deflate, numpy's `.npz` files), and zlib's inflate decodes them faster than this.
        guard literalCount == 257, distanceCount <= 30 else { return nil }
        let lengths = scratch.lengths
        lengths.update(repeating: 0, count: 19)
        for index in 0..<lengthCodeCount {
            guard let length = reader.take(3) else { return nil }
            lengths[Int(codeLengthOrder[index])] = UInt16(length)
        }
        let codeLengths = scratch.codeLengths
        guard let lengthCode = InflateHuffmanCode(lengths, present: InflateHuffmanCode.tally(lengths, count: 19, codeLengths), codeLengths)
        else {
            return nil
        }
        // The literal/length and then the distance code lengths: one sequence, which a repeat may
        // cross. Each code's counts and symbols are tallied as its lengths are read; only the
        // lengths of symbols with a code are written (the codes read no others).
        let (literalCodes, distanceCodes) = (scratch.literals, scratch.distances)
        literalCodes.counts.update(repeating: 0, count: 16)
        distanceCodes.counts.update(repeating: 0, count: 16)
        var (literalsPresent, distancesPresent) = (0, 0)
        var endOfBlockLength: UInt16 = 0
        @inline(__always) func set(_ index: Int, _ length: UInt16) {
            lengths[index] = length
            if index < literalCount {
                literalCodes.counts[Int(length)] &+= 1
                literalCodes.present[literalsPresent] = UInt16(truncatingIfNeeded: index)
                literalsPresent &+= 1
                if index == 256 { endOfBlockLength = length }
            } else {
                distanceCodes.counts[Int(length)] &+= 1
                distanceCodes.present[distancesPresent] = UInt16(truncatingIfNeeded: index &- literalCount)
                distancesPresent &+= 1
            }
        }
        let total = literalCount + distanceCount
        var index = 0
        var previous: UInt16 = 0
        while index < total {
            if reader.bitCount < 7 { reader.refill() }
            guard let symbol = lengthCode.decode(&reader) else { return nil }
            if symbol < 16 {
                if symbol != 0 { set(index, symbol) }
                previous = symbol
                index &+= 1
                continue
            }
            let times: Int
            switch symbol {
            case 16:
                guard index > 0, let extra = reader.take(2) else { return nil }
                times = 3 &+ Int(extra)
                guard times <= total &- index else { return nil }
                if previous != 0 {
                    for offset in 0..<times { set(index &+ offset, previous) }
                }
            case 17:
                guard let extra = reader.take(3) else { return nil }
                times = 3 &+ Int(extra)
                previous = 0
            default:
                guard let extra = reader.take(7) else { return nil }
                times = 11 &+ Int(extra)
                previous = 0
            }
            guard times <= total &- index else { return nil }
            index &+= times
        }
        guard endOfBlockLength != 0, let literals = InflateHuffmanCode(lengths, present: literalsPresent, literalCodes) else { return nil }
        // No distance code (a block of literals): fine until a length symbol asks for one. One
        // code alone is incomplete, which zlib accepts as a special case: left to it.
        guard distancesPresent > 0 else { return (literals, nil) }
        guard let distances = InflateHuffmanCode(lengths + literalCount, present: distancesPresent, distanceCodes) else { return nil }
        return (literals, distances)
    }

    /// A Huffman block's symbols up to its end-of-block symbol.
    @inline(__always)
    private static func symbols(
        _ readerIn: inout InflateBitReader, _ outIn: inout InflateOutput, literals: InflateHuffmanCode, distances: InflateHuffmanCode?
    ) -> Bool {
        // Local copies the compiler keeps in registers.
        var reader = readerIn
        var out = outIn
        defer { (readerIn, outIn) = (reader, out) }
        let (table, rootMask) = (literals.table, literals.rootMask)
        while true {
            // Away from the input's end and the output's: three literals in the root table from
            // one refill (at least 56 bits; a root code has at most 9), without the checks below.
            while reader.hasWord && out.hasRoom(3) {
                reader.refillWord()
                var entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
                guard entry & InflateHuffmanCode.notShortLiteral == 0 else { break }
                out.appendUnchecked(UInt8(truncatingIfNeeded: entry &>> 7))
                reader.consume(entry: entry)
                entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
                guard entry & InflateHuffmanCode.notShortLiteral == 0 else { break }
                out.appendUnchecked(UInt8(truncatingIfNeeded: entry &>> 7))
                reader.consume(entry: entry)
                entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
                guard entry & InflateHuffmanCode.notShortLiteral == 0 else { break }
                out.appendUnchecked(UInt8(truncatingIfNeeded: entry &>> 7))
                reader.consume(entry: entry)
            }
            if reader.bitCount < 15 { reader.refill() }
            guard let symbol = literals.decode(&reader) else { return false }
            if symbol < 256 {
                guard out.append(UInt8(truncatingIfNeeded: symbol)) else { return false }
                continue
            }
            if symbol == 256 { return true }
            let lengthSymbol = Int(symbol) - 257
            guard lengthSymbol < 29, let lengthExtra = reader.take(Int(lengthExtraBits[lengthSymbol])) else { return false }
            if reader.bitCount < 15 { reader.refill() }
            guard let distances, let distanceSymbol = distances.decode(&reader), distanceSymbol < 30,
                let distanceExtra = reader.take(Int(distanceExtraBits[Int(distanceSymbol)])),
                out.copyMatch(
                    distance: Int(distanceBase[Int(distanceSymbol)]) + Int(distanceExtra),
                    length: Int(lengthBase[lengthSymbol]) + Int(lengthExtra))
            else { return false }
        }
    }

    /// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
    private static let codeLengthOrder: [UInt8] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    /// Match lengths and distances: the base of each symbol and its extra bits (RFC 1951, 3.2.5).
    private static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
        12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}

/// The scratch memory of one inflate, in `UInt16` units: code lengths, and per code its tables.
struct InflateScratch {
    static let units = 320 + 5 * InflateHuffmanCode.Memory.units
    let lengths: UnsafeMutablePointer<UInt16>
    /// A dynamic block's codes.
    let codeLengths: InflateHuffmanCode.Memory
    let literals: InflateHuffmanCode.Memory
    let distances: InflateHuffmanCode.Memory
    /// The fixed codes, built once per stream.
    let fixedLiterals: InflateHuffmanCode.Memory
    let fixedDistances: InflateHuffmanCode.Memory

    init(_ memory: UnsafeMutablePointer<UInt16>) {
        lengths = memory
        let codes = memory + 320
        codeLengths = InflateHuffmanCode.Memory(codes)
        literals = InflateHuffmanCode.Memory(codes + InflateHuffmanCode.Memory.units)
        distances = InflateHuffmanCode.Memory(codes + 2 * InflateHuffmanCode.Memory.units)
        fixedLiterals = InflateHuffmanCode.Memory(codes + 3 * InflateHuffmanCode.Memory.units)
        fixedDistances = InflateHuffmanCode.Memory(codes + 4 * InflateHuffmanCode.Memory.units)
    }
}
