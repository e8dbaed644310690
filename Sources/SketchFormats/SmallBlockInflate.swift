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
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Scratch.units) { memory in
            let scratch = Scratch(memory.baseAddress!)
            var outcome: (status: Int32, leftover: Int)? = nil
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
                var out = Output(output.baseAddress!, capacity: capacity)
                outcome = inflateBlocks(BitReader(base, count: deflated.count), into: &out, scratch)
                initialized = out.count
            }
            guard let (status, leftover) = outcome else { return nil }
            return RawInflate.Result(bytes: bytes, status: status, leftover: leftover)
        }
    }

    /// Every block up to the final one, or to the input's end on a block boundary; nil to decline.
    private static func inflateBlocks(_ input: BitReader, into outIn: inout Output, _ scratch: Scratch) -> (Int32, Int)? {
        // Local copies the compiler keeps in registers through the inlined block decoders.
        var reader = input
        var out = outIn
        defer { outIn = out }
        var fixedCodes: (literals: HuffmanCode, distances: HuffmanCode)? = nil
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
    private static func stored(_ reader: inout BitReader, _ out: inout Output) -> Bool {
        reader.alignToByte()
        guard let length = reader.take(16), let complement = reader.take(16), length ^ complement == 0xFFFF else { return false }
        return reader.copyBytes(Int(length), to: &out)
    }

    /// A block in the fixed codes (RFC 1951, 3.2.6), whose tables are built at a stream's first
    /// such block and kept in `codes` for the others (a stream of empty fixed blocks, 10 bits
    /// each, builds them once).
    private static func fixed(
        _ reader: inout BitReader, _ out: inout Output, _ scratch: Scratch, _ codes: inout (literals: HuffmanCode, distances: HuffmanCode)?
    ) -> Bool {
        if codes == nil {
            let lengths = scratch.lengths
            for symbol in 0..<288 { lengths[symbol] = symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
            // 32 five-bit distance codes, so complete; 30 and 31 are refused where they are read.
            for symbol in 288..<320 { lengths[symbol] = 5 }
            let (literalMemory, distanceMemory) = (scratch.fixedLiterals, scratch.fixedDistances)
            guard let literals = HuffmanCode(lengths, present: HuffmanCode.tally(lengths, count: 288, literalMemory), literalMemory),
                let distances = HuffmanCode(
                    lengths + 288, present: HuffmanCode.tally(lengths + 288, count: 32, distanceMemory), distanceMemory)
            else { return false }
            codes = (literals, distances)
        }
        guard let (literals, distances) = codes else { return false }
        return symbols(&reader, &out, literals: literals, distances: distances)
    }

    /// A dynamic block: its codes (``dynamicCodes(_:_:)``), then its symbols.
    @inline(__always)
    private static func dynamic(_ reader: inout BitReader, _ out: inout Output, _ scratch: Scratch) -> Bool {
        guard let (literals, distances) = dynamicCodes(&reader, scratch) else { return false }
        return symbols(&reader, &out, literals: literals, distances: distances)
    }

    /// A dynamic block's header: its code-length code, then its literal/length and distance code
    /// lengths (nil distances for a block of literals alone); nil to decline.
    private static func dynamicCodes(_ readerIn: inout BitReader, _ scratch: Scratch) -> (HuffmanCode, HuffmanCode?)? {
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
        guard let lengthCode = HuffmanCode(lengths, present: HuffmanCode.tally(lengths, count: 19, codeLengths), codeLengths) else {
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
        guard endOfBlockLength != 0, let literals = HuffmanCode(lengths, present: literalsPresent, literalCodes) else { return nil }
        // No distance code (a block of literals): fine until a length symbol asks for one. One
        // code alone is incomplete, which zlib accepts as a special case: left to it.
        guard distancesPresent > 0 else { return (literals, nil) }
        guard let distances = HuffmanCode(lengths + literalCount, present: distancesPresent, distanceCodes) else { return nil }
        return (literals, distances)
    }

    /// A Huffman block's symbols up to its end-of-block symbol.
    @inline(__always)
    private static func symbols(_ readerIn: inout BitReader, _ outIn: inout Output, literals: HuffmanCode, distances: HuffmanCode?) -> Bool
    {
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
                guard entry & HuffmanCode.notShortLiteral == 0 else { break }
                out.appendUnchecked(UInt8(truncatingIfNeeded: entry &>> 7))
                reader.consume(entry: entry)
                entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
                guard entry & HuffmanCode.notShortLiteral == 0 else { break }
                out.appendUnchecked(UInt8(truncatingIfNeeded: entry &>> 7))
                reader.consume(entry: entry)
                entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
                guard entry & HuffmanCode.notShortLiteral == 0 else { break }
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
private struct Scratch {
    static let units = 320 + 5 * HuffmanCode.Memory.units
    let lengths: UnsafeMutablePointer<UInt16>
    /// A dynamic block's codes.
    let codeLengths: HuffmanCode.Memory
    let literals: HuffmanCode.Memory
    let distances: HuffmanCode.Memory
    /// The fixed codes, built once per stream.
    let fixedLiterals: HuffmanCode.Memory
    let fixedDistances: HuffmanCode.Memory

    init(_ memory: UnsafeMutablePointer<UInt16>) {
        lengths = memory
        let codes = memory + 320
        codeLengths = HuffmanCode.Memory(codes)
        literals = HuffmanCode.Memory(codes + HuffmanCode.Memory.units)
        distances = HuffmanCode.Memory(codes + 2 * HuffmanCode.Memory.units)
        fixedLiterals = HuffmanCode.Memory(codes + 3 * HuffmanCode.Memory.units)
        fixedDistances = HuffmanCode.Memory(codes + 4 * HuffmanCode.Memory.units)
    }
}

/// A canonical Huffman code (RFC 1951, 3.2.2) ready to decode: a root table indexed by the next
/// `rootBits` input bits, each entry a symbol and its length (`symbol << 7 | length`, with
/// ``notShortLiteral`` set for symbols from 256 on) or ``notShortLiteral`` alone where a longer
/// code starts; longer codes are read bit by bit with the first code and the first sorted symbol
/// of each length. The length sits in the low bits (bits 4 and 5 clear), so an entry is itself
/// the shift that consumes its code.
private struct HuffmanCode {
    /// The flag of root-table entries that are not a literal byte (0…255) with its length.
    static let notShortLiteral: UInt16 = 0x40
    /// Longest root table: codes up to this many bits decode in one lookup.
    static let maximumRootBits = 9

    /// Where a code's tables live: the root table, the symbols sorted by code, the symbols with a
    /// code in symbol order, and per length 0…15 the number of codes, the first code and the
    /// first code's place in the sorted symbols (and the next place while sorting).
    struct Memory {
        static let units = (1 << maximumRootBits) + 2 * 288 + 4 * 16
        let table: UnsafeMutablePointer<UInt16>
        let sorted: UnsafeMutablePointer<UInt16>
        let present: UnsafeMutablePointer<UInt16>
        let counts: UnsafeMutablePointer<UInt16>
        let firstCodes: UnsafeMutablePointer<UInt16>
        let firstIndices: UnsafeMutablePointer<UInt16>
        let places: UnsafeMutablePointer<UInt16>

        init(_ memory: UnsafeMutablePointer<UInt16>) {
            table = memory
            sorted = table + (1 << maximumRootBits)
            present = sorted + 288
            counts = present + 288
            firstCodes = counts + 16
            firstIndices = firstCodes + 16
            places = firstIndices + 16
        }
    }

    let table: UnsafePointer<UInt16>
    let rootMask: UInt64
    private let memory: Memory
    private let longest: Int

    /// Counts the codes of each length among `lengths[0..<count]` (0…15 each) into `memory.counts`
    /// and lists the symbols with a code in `memory.present`; returns how many there are.
    static func tally(_ lengths: UnsafePointer<UInt16>, count: Int, _ memory: Memory) -> Int {
        memory.counts.update(repeating: 0, count: 16)
        var present = 0
        for symbol in 0..<count {
            let length = Int(lengths[symbol])
            guard length != 0 else { continue }
            memory.counts[length] &+= 1
            memory.present[present] = UInt16(truncatingIfNeeded: symbol)
            present &+= 1
        }
        return present
    }

    /// The code whose lengths (0…15 each) are `lengths`, built in `memory`, whose counts and list of
    /// `present` symbols ``tally(_:count:_:)`` or the caller made; nil when the lengths are
    /// over-subscribed, incomplete or all zero.
    init?(_ lengths: UnsafePointer<UInt16>, present: Int, _ memory: Memory) {
        let counts = memory.counts
        var longest = 15
        while longest > 0 && counts[longest] == 0 { longest -= 1 }
        guard longest > 0 else { return nil }
        // Complete: the codes fill the code space exactly (Kraft's sum is 1).
        let (firstCodes, firstIndices, places) = (memory.firstCodes, memory.firstIndices, memory.places)
        var left = 1
        var code = 0
        var index = 0
        for length in 1...15 {
            let lengthCount = Int(counts[length])
            left = left &<< 1 &- lengthCount
            guard left >= 0 else { return nil }
            firstCodes[length] = UInt16(truncatingIfNeeded: code)
            firstIndices[length] = UInt16(truncatingIfNeeded: index)
            places[length] = UInt16(truncatingIfNeeded: index)
            code = (code &+ lengthCount) &<< 1
            index &+= lengthCount
        }
        guard left == 0 else { return nil }
        // Symbols in code order: by length, then by symbol.
        let sorted = memory.sorted
        for place in 0..<present {
            let symbol = memory.present[place]
            let length = Int(lengths[Int(symbol)])
            sorted[Int(places[length])] = symbol
            places[length] &+= 1
        }
        // The root table, filled one length at a time: doubled (each shorter code's entries
        // copied to the indices one bit longer), then this length's codes at their bit-reversed
        // codes. A long code's prefix is never filled and stays ``notShortLiteral``.
        let rootBits = Swift.min(longest, Self.maximumRootBits)
        let table = memory.table
        table[0] = Self.notShortLiteral
        table[1] = Self.notShortLiteral
        var size = 2
        var reversed = 0
        var next = 0
        for length in 1...rootBits {
            if length > 1 {
                (table + size).update(from: table, count: size)
                size <<= 1
            }
            let entry = UInt16(truncatingIfNeeded: length)
            for _ in 0..<Int(counts[length]) {
                // Symbols 256 and up (at most 287) set the flag: their bit 8 moved to bit 6.
                let symbol = sorted[next]
                table[reversed] = entry | symbol &<< 7 | (symbol &>> 8) &<< 6
                next &+= 1
                // The next code, bit-reversed: its highest 0 bit (of `length`) set, the 1s above it cleared.
                let highestZero = (reversed ^ (size - 1))
                guard highestZero != 0 else { break }
                let bit = 1 &<< (Int.bitWidth &- 1 &- highestZero.leadingZeroBitCount)
                reversed = reversed & (bit &- 1) | bit
            }
        }
        self.table = UnsafePointer(table)
        self.rootMask = UInt64(size - 1)
        self.memory = memory
        self.longest = longest
    }

    /// The next symbol, its bits consumed; nil when the input has too few bits left for it.
    @inline(__always)
    func decode(_ reader: inout BitReader) -> UInt16? {
        let entry = table[Int(truncatingIfNeeded: reader.buffer & rootMask)]
        var symbol = entry &>> 7
        var length = Int(entry & 0xF)
        if length == 0 {
            guard let long = decodeLong(reader.buffer) else { return nil }
            (symbol, length) = long
        }
        guard length <= reader.bitCount else { return nil }
        reader.consume(length)
        return symbol
    }

    /// A code longer than the root table, read canonically one bit at a time from `bits`.
    private func decodeLong(_ bits: UInt64) -> (UInt16, Int)? {
        var code = 0
        for length in 1...longest {
            code = code << 1 | Int((bits >> UInt64(length - 1)) & 1)
            let offset = code - Int(memory.firstCodes[length])
            if offset >= 0 && offset < Int(memory.counts[length]) {
                return (memory.sorted[Int(memory.firstIndices[length]) + offset], length)
            }
        }
        return nil
    }
}

/// Input bits, least significant first (RFC 1951, 3.1.1), from a 64-bit buffer refilled by
/// unaligned 8-byte loads away from the input's end.
private struct BitReader {
    private let base: UnsafePointer<UInt8>
    let count: Int
    /// The next byte not yet in `buffer`.
    private var position = 0
    private(set) var buffer: UInt64 = 0
    /// Valid bits in `buffer` (the bits above them hold the next bytes' bits or zeros).
    private(set) var bitCount = 0

    init(_ base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Bits taken so far.
    var consumedBits: Int { position * 8 - bitCount }

    /// Whether eight input bytes are left to load (``refillWord()``).
    var hasWord: Bool { position &+ 8 <= count }

    /// Fills `buffer` to at least 56 bits, or with what the input has left.
    @inline(__always)
    mutating func refill() {
        if hasWord { refillWord() } else { refillNearEnd() }
    }

    /// Fills `buffer` to at least 56 bits from the next eight input bytes (``hasWord``).
    @inline(__always)
    mutating func refillWord() {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
        buffer |= word &<< UInt64(truncatingIfNeeded: bitCount)
        position &+= (63 &- bitCount) &>> 3
        bitCount |= 56
    }

    @inline(__always)
    private mutating func refillNearEnd() {
        while bitCount <= 56 && position < count {
            buffer |= UInt64(base[position]) &<< UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    /// Consumes the code of a root-table entry (``HuffmanCode``): its length is its low bits.
    @inline(__always)
    mutating func consume(entry: UInt16) {
        buffer &>>= UInt64(truncatingIfNeeded: entry)
        bitCount &-= Int(entry & 0xF)
    }

    @inline(__always)
    mutating func consume(_ bits: Int) {
        buffer &>>= UInt64(truncatingIfNeeded: bits)
        bitCount &-= bits
    }

    /// The next `bits` (0…16) bits as a number, consumed; nil when the input has fewer left.
    @inline(__always)
    mutating func take(_ bits: Int) -> UInt32? {
        if bitCount < bits {
            refill()
            guard bitCount >= bits else { return nil }
        }
        let value = UInt32(truncatingIfNeeded: buffer & ((1 &<< UInt64(truncatingIfNeeded: bits)) &- 1))
        consume(bits)
        return value
    }

    /// Skips to the next byte boundary.
    mutating func alignToByte() { consume(bitCount & 7) }

    /// Copies the next `length` bytes (from a byte boundary) to `out`; false when the input or the
    /// output has less room.
    mutating func copyBytes(_ length: Int, to out: inout Output) -> Bool {
        position -= bitCount >> 3
        (buffer, bitCount) = (0, 0)
        guard length <= count - position, out.append(base + position, count: length) else { return false }
        position += length
        return true
    }
}

/// The inflated bytes, written into a buffer of fixed capacity.
private struct Output {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Whether `bytes` more fit.
    @inline(__always)
    func hasRoom(_ bytes: Int) -> Bool { bytes <= capacity &- count }

    /// Appends `byte` where ``hasRoom(_:)`` said it fits.
    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) -> Bool {
        guard count < capacity else { return false }
        base[count] = byte
        count &+= 1
        return true
    }

    mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) -> Bool {
        guard length <= capacity - count else { return false }
        (base + count).update(from: bytes, count: length)
        count += length
        return true
    }

    /// Appends `length` bytes copied from `distance` bytes back (overlapping when the distance is
    /// shorter); false when that reaches before the first byte or past the capacity.
    @inline(__always)
    mutating func copyMatch(distance: Int, length: Int) -> Bool {
        guard distance <= count, length <= capacity &- count else { return false }
        var from = base + (count &- distance)
        var to = base + count
        let end = to + length
        if distance >= 8 {
            // Eight bytes at a time: each word read lies before the one being written.
            while end - to >= 8 {
                UnsafeMutableRawPointer(to).storeBytes(
                    of: UnsafeRawPointer(from).loadUnaligned(as: UInt64.self), as: UInt64.self)
                to += 8
                from += 8
            }
        }
        while to < end {
            to.pointee = from.pointee
            to += 1
            from += 1
        }
        count &+= length
        return true
    }
}
