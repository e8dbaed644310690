import CZlib

/// The zlib stream of PNG scanlines, deflated with matches at two distances only: one pixel back
/// (runs of one value, as zlib's `Z_RLE` finds them) and one scanline back ("the same as the row
/// above", which `Z_RLE` cannot see). Built for gray sketch rasters, where nearly every byte is in
/// a run of the background or repeats the row above; ``PNGEncoder`` uses it for gray images.
///
/// Parsing is greedy: at each byte the longer of the two matches (3 to 258 bytes; ties to the
/// pixel distance, whose code is shorter) or else a literal. Every 16,384 symbols (zlib's block
/// size at memory level 8) or at the end, the block is written as whichever of dynamic Huffman
/// (codes built for the block), fixed Huffman or stored is smallest. Same input, same bytes. One
/// encoder per image: it holds the block's symbols and codes (about 70 KiB).
package final class ScanlineDeflate {
    private static let blockSymbols = 16_384
    private static let endOfBlock = 256
    private static let literalSymbols = 286
    private static let distanceSymbols = 30
    private static let minimumMatch = 3
    private static let maximumMatch = 258
    /// Largest distance deflate's 32 KiB window allows.
    private static let maximumDistance = 32_768
    private static let storedLimit = 0xFFFF

    /// Per match length − 3: literal/length symbol (low 16 bits), extra-bit count (bits 16–23),
    /// extra-bit value (bits 24–31).
    private static let lengthTable: [UInt32] = (0..<256).map { excess in
        if excess == 255 { return 285 }
        if excess < 8 { return UInt32(257 + excess) }
        let exponent = Int.bitWidth - 1 - excess.leadingZeroBitCount
        let extraBits = exponent - 2
        let symbol = 257 + 4 * (exponent - 1) + (excess >> extraBits & 3)
        return UInt32(symbol) | UInt32(extraBits) << 16 | UInt32(excess & (1 << extraBits - 1)) << 24
    }

    /// The fixed Huffman code's lengths (RFC 1951, 3.2.6): literal/length, then 30 distance codes of 5 bits.
    private static let fixedLengths: [UInt8] =
        [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112) + [UInt8](repeating: 7, count: 24)
        + [UInt8](repeating: 8, count: 8) + [UInt8](repeating: 5, count: 30)
    /// The fixed code's bit-reversed codes, in the same order.
    private static let fixedCodes: [UInt32] = {
        var counts = [Int](repeating: 0, count: 16)
        var next = [Int](repeating: 0, count: 16)
        var codes = [UInt32](repeating: 0, count: 318)
        codes.withUnsafeMutableBufferPointer { codes in
            fixedLengths.withUnsafeBufferPointer { lengths in
                for (start, count) in [(0, 288), (288, 30)] {
                    DeflateHuffmanCode.assignCodes(
                        lengths: lengths.baseAddress! + start, count: count, codes: codes.baseAddress! + start,
                        lengthCounts: &counts, nextCodes: &next)
                }
            }
        }
        return codes
    }()

    /// The block's symbols: a literal byte (below 256), or a match: bit 8 set, length − 3 in
    /// bits 9–16, bit 17 set for the scanline distance.
    private let symbols: UnsafeMutablePointer<UInt32>
    private let literalFrequencies: UnsafeMutablePointer<Int>
    private let distanceFrequencies: UnsafeMutablePointer<Int>
    private let lengths: UnsafeMutablePointer<UInt8>
    /// Literal/length then distance code lengths, contiguous, as the block header sends them.
    private let headerLengths: UnsafeMutablePointer<UInt8>
    private let distanceLengths: UnsafeMutablePointer<UInt8>
    private let codes: UnsafeMutablePointer<UInt32>
    private let distanceCodes: UnsafeMutablePointer<UInt32>
    private let huffman = DeflateHuffmanCode()

    package init() {
        symbols = .allocate(capacity: Self.blockSymbols)
        literalFrequencies = .allocate(capacity: Self.literalSymbols)
        distanceFrequencies = .allocate(capacity: Self.distanceSymbols)
        lengths = .allocate(capacity: Self.literalSymbols)
        headerLengths = .allocate(capacity: Self.literalSymbols + Self.distanceSymbols)
        distanceLengths = .allocate(capacity: Self.distanceSymbols)
        codes = .allocate(capacity: Self.literalSymbols)
        distanceCodes = .allocate(capacity: Self.distanceSymbols)
    }

    deinit {
        symbols.deallocate()
        literalFrequencies.deallocate()
        distanceFrequencies.deallocate()
        lengths.deallocate()
        headerLengths.deallocate()
        distanceLengths.deallocate()
        codes.deallocate()
        distanceCodes.deallocate()
    }

    /// A distance's symbol (bits 0–7), extra-bit count (bits 8–15) and extra-bit value (bits 16–31:
    /// distances up to 32,768 take up to 13 extra bits).
    private static func distanceCode(_ distance: Int) -> UInt32 {
        let excess = distance - 1
        if excess < 4 { return UInt32(excess) }
        let exponent = Int.bitWidth - 1 - excess.leadingZeroBitCount
        let extraBits = exponent - 1
        let symbol = 2 * exponent + (excess >> extraBits & 1)
        return UInt32(symbol) | UInt32(extraBits) << 8 | UInt32(excess & (1 << extraBits - 1)) << 16
    }

    /// Most bytes the zlib stream of `count` bytes can take (every block at worst stored).
    package static func bound(_ count: Int) -> Int { count + count / 1024 + 64 }

    /// The zlib stream (header, deflate data, Adler-32) of `data`, scanlines of `stride` bytes
    /// (filter byte included) whose pixels are `pixelBytes` bytes; without `rowAbove`, runs alone
    /// (for rows already predicted from the row above by their filter).
    package func deflate(_ data: UnsafeBufferPointer<UInt8>, stride: Int, pixelBytes: Int, rowAbove: Bool = true) -> [UInt8] {
        let capacity = Self.bound(data.count)
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let out = buffer.baseAddress!
            out[0] = 0x78  // deflate, 32 KiB window
            out[1] = 0x01  // fastest compression, no dictionary (0x7801 is a multiple of 31)
            var writer = DeflateBitWriter(out + 2)
            compress(data, stride: rowAbove ? stride : 0, pixelBytes: pixelBytes, writer: &writer)
            writer.flush()
            let adler = Self.adler32(data)
            writer.put(adler.byteSwapped, 32)
            count = 2 + writer.written
            precondition(count <= capacity, "scanline deflate overran its bound")
        }
    }

    /// Adler-32 of `data` (RFC 1950), 16 bytes a step: per lane the byte sums and the running sums
    /// of those sums, folded into the two halves every 5,536 bytes, before 32 bits could overflow.
    static func adler32(_ data: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let modulus: UInt64 = 65_521
        var low: UInt64 = 1
        var high: UInt64 = 0
        var index = 0
        guard let base = data.baseAddress else { return 1 }
        let weights = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        while data.count - index >= 16 {
            let blocks = min((data.count - index) / 16, 346)  // 255 · 346 · 347 / 2 per lane stays below 2³²
            var sums = SIMD16<UInt32>(repeating: 0)
            var runningSums = SIMD16<UInt32>(repeating: 0)
            for block in 0..<blocks {
                let bytes = UnsafeRawPointer(base + index + 16 * block).loadUnaligned(as: SIMD16<UInt8>.self)
                sums &+= SIMD16<UInt32>(truncatingIfNeeded: bytes)
                runningSums &+= sums
            }
            // Byte j of block k is counted 16 · (blocks − k) − j times in the high half.
            let count = UInt64(16 * blocks)
            high += count * low + 16 * UInt64(runningSums.wrappedSum()) - UInt64((sums &* weights).wrappedSum())
            low += UInt64(sums.wrappedSum())
            low %= modulus
            high %= modulus
            index += Int(count)
        }
        while index < data.count {
            low += UInt64(base[index])
            high += low
            index += 1
        }
        return UInt32(high % modulus) << 16 | UInt32(low % modulus)
    }

    private func compress(_ data: UnsafeBufferPointer<UInt8>, stride: Int, pixelBytes: Int, writer: inout DeflateBitWriter) {
        guard let base = data.baseAddress, data.count > 0 else {
            writer.put(0b011, 3)  // final, fixed Huffman: end-of-block alone
            writer.put(0, 7)
            return
        }
        let total = data.count
        let near = pixelBytes
        let far = stride <= Self.maximumDistance ? stride : 0  // 0: runs alone
        let nearCode = Self.distanceCode(near)
        let farCode = far > 0 ? Self.distanceCode(far) : 0
        var position = 0
        var blockStart = 0
        // The block's symbols, and the extra bits of its matches (length and distance).
        var symbolCount = 0
        var extraBits = 0
        resetBlock()
        Self.lengthTable.withUnsafeBufferPointer { lengthTable in
            while position < total {
                let limit = min(Self.maximumMatch, total - position)
                var length = 0
                var symbol: UInt32 = 0
                if limit >= Self.minimumMatch {
                    if position >= near {
                        length = Self.matchLength(base + position, base + position - near, limit: limit)
                        symbol = 0x100
                    }
                    if far > 0 && position >= far && length < limit {
                        let farLength = Self.matchLength(base + position, base + position - far, limit: limit)
                        if farLength > length {
                            length = farLength
                            symbol = 0x100 | 1 << 17
                        }
                    }
                }
                if length >= Self.minimumMatch {
                    let lengthCode = lengthTable[length - Self.minimumMatch]
                    let distanceCode = symbol >> 17 == 0 ? nearCode : farCode
                    literalFrequencies[Int(lengthCode & 0xFFFF)] += 1
                    distanceFrequencies[Int(distanceCode & 0xFF)] += 1
                    extraBits += Int(lengthCode >> 16 & 0xFF) + Int(distanceCode >> 8 & 0xFF)
                    symbols[symbolCount] = symbol | UInt32(length - Self.minimumMatch) << 9
                    position += length
                } else {
                    let byte = base[position]
                    literalFrequencies[Int(byte)] += 1
                    symbols[symbolCount] = UInt32(byte)
                    position += 1
                }
                symbolCount += 1
                if symbolCount == Self.blockSymbols || position == total {
                    writeBlock(
                        UnsafeBufferPointer(rebasing: data[blockStart..<position]), symbolCount: symbolCount, extraBits: extraBits,
                        final: position == total, distances: (nearCode, farCode), writer: &writer)
                    blockStart = position
                    symbolCount = 0
                    extraBits = 0
                    resetBlock()
                }
            }
        }
    }

    private func resetBlock() {
        literalFrequencies.update(repeating: 0, count: Self.literalSymbols)
        distanceFrequencies.update(repeating: 0, count: Self.distanceSymbols)
    }

    /// How many bytes from `current` equal those from `earlier` (at most `limit`), 8 at a time.
    @inline(__always)
    private static func matchLength(_ current: UnsafePointer<UInt8>, _ earlier: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let difference =
                UnsafeRawPointer(current + length).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(earlier + length).loadUnaligned(as: UInt64.self)
            if difference != 0 { return length + UInt64(littleEndian: difference).trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit && current[length] == earlier[length] { length += 1 }
        return length
    }

    /// Writes the block of the symbols gathered (the bytes `span`) as the smallest of dynamic
    /// Huffman, fixed Huffman and stored.
    private func writeBlock(
        _ span: UnsafeBufferPointer<UInt8>, symbolCount: Int, extraBits: Int, final: Bool, distances: (near: UInt32, far: UInt32),
        writer: inout DeflateBitWriter
    ) {
        literalFrequencies[Self.endOfBlock] = 1
        huffman.build(literalFrequencies, count: Self.literalSymbols, limit: 15, lengths: lengths, codes: codes)
        huffman.build(distanceFrequencies, count: Self.distanceSymbols, limit: 15, lengths: distanceLengths, codes: distanceCodes)
        var literalCount = Self.literalSymbols
        while literalCount > 257 && lengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = Self.distanceSymbols
        while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
        headerLengths.update(from: lengths, count: literalCount)
        (headerLengths + literalCount).update(from: distanceLengths, count: distanceCount)

        var dynamicBits =
            3 + extraBits + huffman.prepareHeader(lengths: headerLengths, literalCount: literalCount, distanceCount: distanceCount)
        var fixedBits = 3 + extraBits
        Self.fixedLengths.withUnsafeBufferPointer { fixed in
            for symbol in 0..<Self.literalSymbols where literalFrequencies[symbol] > 0 {
                dynamicBits += literalFrequencies[symbol] * Int(lengths[symbol])
                fixedBits += literalFrequencies[symbol] * Int(fixed[symbol])
            }
        }
        for symbol in 0..<Self.distanceSymbols where distanceFrequencies[symbol] > 0 {
            dynamicBits += distanceFrequencies[symbol] * Int(distanceLengths[symbol])
            fixedBits += distanceFrequencies[symbol] * 5
        }
        // Stored: per piece of at most 65,535 bytes the 3 bits, at most 7 of padding and 4 bytes of length.
        let pieces = max(1, (span.count + Self.storedLimit - 1) / Self.storedLimit)
        let storedBits = 8 * span.count + pieces * (3 + 7 + 32)
        let finalBit: UInt32 = final ? 1 : 0
        if storedBits < dynamicBits && storedBits < fixedBits {
            writeStored(span, final: finalBit, writer: &writer)
        } else if fixedBits <= dynamicBits {
            writer.put(finalBit | 0b010, 3)
            Self.fixedCodes.withUnsafeBufferPointer { fixedCodes in
                Self.fixedLengths.withUnsafeBufferPointer { fixedLengths in
                    writeSymbols(
                        symbolCount,
                        codes: (fixedCodes.baseAddress!, fixedLengths.baseAddress!),
                        distanceCodes: (fixedCodes.baseAddress! + 288, fixedLengths.baseAddress! + 288), distances: distances,
                        writer: &writer)
                }
            }
        } else {
            writer.put(finalBit | 0b100, 3)
            huffman.writeHeader(literalCount: literalCount, distanceCount: distanceCount, to: &writer)
            writeSymbols(
                symbolCount,
                codes: (UnsafePointer(codes), UnsafePointer(lengths)),
                distanceCodes: (UnsafePointer(distanceCodes), UnsafePointer(distanceLengths)), distances: distances, writer: &writer)
        }
    }

    /// The block's `symbolCount` symbols and its end-of-block in the codes given (codes, lengths).
    private func writeSymbols(
        _ symbolCount: Int, codes: (UnsafePointer<UInt32>, UnsafePointer<UInt8>),
        distanceCodes: (UnsafePointer<UInt32>, UnsafePointer<UInt8>),
        distances: (near: UInt32, far: UInt32), writer: inout DeflateBitWriter
    ) {
        Self.lengthTable.withUnsafeBufferPointer { lengthTable in
            for index in 0..<symbolCount {
                let symbol = symbols[index]
                if symbol < 0x100 {
                    writer.put(codes.0[Int(symbol)], Int(codes.1[Int(symbol)]))
                    continue
                }
                let lengthCode = lengthTable[Int(symbol >> 9 & 0xFF)]
                let lengthSymbol = Int(lengthCode & 0xFFFF)
                writer.put(codes.0[lengthSymbol], Int(codes.1[lengthSymbol]))
                writer.put(lengthCode >> 24, Int(lengthCode >> 16 & 0xFF))
                let distanceCode = symbol >> 17 == 0 ? distances.near : distances.far
                let distanceSymbol = Int(distanceCode & 0xFF)
                writer.put(distanceCodes.0[distanceSymbol], Int(distanceCodes.1[distanceSymbol]))
                writer.put(distanceCode >> 16, Int(distanceCode >> 8 & 0xFF))
            }
        }
        writer.put(codes.0[Self.endOfBlock], Int(codes.1[Self.endOfBlock]))
    }

    /// The bytes `span` as stored blocks of at most 65,535 bytes, the last one final when `final` is 1.
    private func writeStored(_ span: UnsafeBufferPointer<UInt8>, final: UInt32, writer: inout DeflateBitWriter) {
        var start = 0
        repeat {
            let end = min(span.count, start + Self.storedLimit)
            let length = UInt32(end - start)
            writer.put(end == span.count ? final : 0, 3)
            writer.flush()
            writer.put(length | (~length & 0xFFFF) << 16, 32)
            writer.copy(UnsafeBufferPointer(rebasing: span[start..<end]))
            start = end
        } while start < span.count
    }
}
