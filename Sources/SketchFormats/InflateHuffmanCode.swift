/// A canonical Huffman code (RFC 1951, 3.2.2) ready to decode: a root table indexed by the next
/// `rootBits` input bits, each entry a symbol and its length (`symbol << 7 | length`, with
/// ``notShortLiteral`` set for symbols from 256 on) or ``notShortLiteral`` alone where a longer
/// code starts; longer codes are read bit by bit with the first code and the first sorted symbol
/// of each length. The length sits in the low bits (bits 4 and 5 clear), so an entry is itself
/// the shift that consumes its code.
struct InflateHuffmanCode {
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
    func decode(_ reader: inout InflateBitReader) -> UInt16? {
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
