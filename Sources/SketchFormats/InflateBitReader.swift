/// Input bits, least significant first (RFC 1951, 3.1.1), from a 64-bit buffer refilled by
/// unaligned 8-byte loads away from the input's end.
struct InflateBitReader {
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

    /// Consumes the code of a root-table entry (``InflateHuffmanCode``): its length is its low bits.
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
    mutating func copyBytes(_ length: Int, to out: inout InflateOutput) -> Bool {
        position -= bitCount >> 3
        (buffer, bitCount) = (0, 0)
        guard length <= count - position, out.append(base + position, count: length) else { return false }
        position += length
        return true
    }
}
