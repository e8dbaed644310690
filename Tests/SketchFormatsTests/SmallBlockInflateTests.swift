import CZlib
import Testing

@testable import SketchFormats

@Suite struct SmallBlockInflateTests {
    /// Expects `RawInflate.inflate` to give zlib's bytes, status and unused input for `deflated`
    /// and `capacity`; returns whether `SmallBlockInflate` decoded it (rather than leaving it to zlib).
    @discardableResult
    static func expectZlibResult(_ deflated: [UInt8], capacity: Int, _ what: String) -> Bool {
        let comment = Comment(rawValue: what)
        let ours = try? RawInflate.inflate(deflated[...], capacity: capacity)
        let zlib = try? RawInflate.zlib(deflated[...], capacity: capacity)
        let sameBytes = ours != nil && ours?.bytes == zlib?.bytes
        #expect(sameBytes, "\(what): \(ours?.bytes.count ?? -1) bytes, zlib's \(zlib?.bytes.count ?? -1)")
        #expect(ours?.status == zlib?.status, comment)
        #expect(ours?.leftover == zlib?.leftover, comment)
        return deflated.withUnsafeBufferPointer { SmallBlockInflate.inflate($0, capacity: capacity) } != nil
    }

    /// Inputs of several shapes: noise over a few and over all byte values, text with repeats,
    /// long runs, stroke-3 rows.
    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        let text = Array(String(repeating: "{'descr': '<i2', 'fortran_order': False, 'shape': (57, 3), } ", count: 40).utf8)
        return [
            ("empty", []),
            ("one byte", [42]),
            ("noise over 4 values", HuffmanOnlyDeflateTests.randomBytes(5_000, seed: 1, range: 4)),
            ("noise over 256 values", HuffmanOnlyDeflateTests.randomBytes(70_000, seed: 2)),
            ("text with repeats", text),
            ("a long run", [UInt8](repeating: 7, count: 100_000)),
            ("stroke-3 rows", try HuffmanOnlyDeflateTests.stroke3Arrays().prefix(200).flatMap { $0 }),
        ]
    }

    @Test func stroke3EntriesAsSketchprepWritesThemAreDecodedHereAsZlibDecodesThem() throws {
        // An entry's stream as `Stroke3NPZAssembler` makes it: an opening deflated by zlib, then
        // per array a stored piece and the array's Huffman-only block, then a final stored block.
        let encoder = try DeflateFragmentEncoder()
        let opening = Array("\u{93}NUMPY\u{1}\u{0}v\u{0}{'descr': '|O', 'fortran_order': False, 'shape': (200,), }".utf8)
        var stream: [UInt8] = []
        try encoder.append(opening, to: &stream)
        var plain = opening
        for (index, array) in try HuffmanOnlyDeflateTests.stroke3Arrays().prefix(200).enumerated() {
            let piece = [UInt8(index & 0xFF), 0x71, 0x02]
            DeflateFragmentEncoder.appendStoredBlock(piece[...], final: false, to: &stream)
            try encoder.append(array, strategy: .huffmanOnly, to: &stream)
            plain += piece + array
        }
        DeflateFragmentEncoder.appendStoredBlock([0x2E], final: true, to: &stream)
        plain.append(0x2E)
        #expect(Self.expectZlibResult(stream, capacity: plain.count, "the whole entry"))
        let inflated = try RawInflate.inflate(stream[...], capacity: plain.count)
        #expect(inflated.bytes == plain && inflated.ended)
        #expect(Self.expectZlibResult(stream + [1, 2, 3], capacity: plain.count + 10, "bytes after the final block"))
    }

    @Test func zlibStreamsOfEveryLevelAndStrategyInflateAsZlibDoesAndLiteralBlocksWithoutIt() throws {
        let strategies: [(String, Int32)] = [
            ("default", Z_DEFAULT_STRATEGY), ("filtered", Z_FILTERED), ("Huffman only", Z_HUFFMAN_ONLY), ("RLE", Z_RLE),
            ("fixed", Z_FIXED),
        ]
        for (name, input) in try Self.inputs() {
            for level: Int32 in [0, 1, 6, 9] {
                for (strategyName, strategy) in strategies {
                    let deflated = HuffmanOnlyDeflateTests.zlibDeflate(input, level: level, strategy: strategy)
                    let what = "\(name), level \(level), \(strategyName)"
                    let decodedHere = Self.expectZlibResult(deflated, capacity: max(input.count, 1), what)
                    // Stored blocks, fixed codes and literal-only dynamic blocks are decoded here.
                    if level == 0 || strategy == Z_HUFFMAN_ONLY || strategy == Z_FIXED {
                        #expect(decodedHere, Comment(rawValue: what))
                    }
                    let inflated = try RawInflate.inflate(deflated[...], capacity: max(input.count, 1))
                    #expect(inflated.bytes == input && inflated.ended, Comment(rawValue: what))
                }
            }
        }
    }

    @Test func dynamicBlocksThatMaySendMatchesAreLeftToZlib() throws {
        let rows = try Self.inputs()[6].bytes
        let deflated = HuffmanOnlyDeflateTests.zlibDeflate(rows, level: 9, strategy: Z_DEFAULT_STRATEGY)
        // BTYPE 10 (dynamic) and HLIT past 257: the block codes match lengths.
        #expect(deflated[0] >> 1 & 0b11 == 0b10 && deflated[0] >> 3 & 0x1F > 0)
        #expect(!Self.expectZlibResult(deflated, capacity: rows.count, "stroke-3 rows at level 9"))
    }

    @Test func streamsOfManySmallBlocksOfEveryTypeAreDecodedHereAsZlibDecodesThem() throws {
        // Empty fixed-code blocks (10 bits each: header and end-of-block), then stored and
        // literal-only blocks between fixed ones holding a literal, then a final stored block.
        var writer = [UInt8](repeating: 0, count: 20_000)
        var bits = 0
        func put(_ value: UInt32, _ count: Int) {
            for bit in 0..<count where value >> bit & 1 == 1 { writer[(bits + bit) / 8] |= 1 << UInt8((bits + bit) % 8) }
            bits += count
        }
        for _ in 0..<10_000 {
            put(0b010, 3)  // not final, fixed codes
            put(0, 7)  // end of block: code 0000000
        }
        // 100,000 bits: the blocks after them start on a byte, as `appendStoredBlock` needs.
        try #require(bits % 8 == 0)
        var stream = Array(writer.prefix(bits / 8))
        var plain: [UInt8] = []
        let encoder = HuffmanOnlyDeflate()
        for (index, array) in try HuffmanOnlyDeflateTests.stroke3Arrays().prefix(50).enumerated() {
            DeflateFragmentEncoder.appendStoredBlock([UInt8(index)], final: false, to: &stream)
            encoder.append(array, to: &stream)
            plain += [UInt8(index)] + array
        }
        DeflateFragmentEncoder.appendStoredBlock([], final: true, to: &stream)
        #expect(Self.expectZlibResult(stream, capacity: plain.count, "10,000 empty fixed blocks, then stored and literal blocks"))
        #expect(try RawInflate.inflate(stream[...], capacity: plain.count).bytes == plain)
    }

    @Test func outputLargerThanTheCapacityGivesZlibsResult() throws {
        for (name, input) in try Self.inputs() where input.count > 1 {
            let deflated = HuffmanOnlyDeflateTests.zlibDeflate(input, level: 6, strategy: Z_DEFAULT_STRATEGY)
            for capacity in [1, input.count / 2, input.count - 1, input.count, input.count + 1] {
                Self.expectZlibResult(deflated, capacity: capacity, "\(name), capacity \(capacity)")
            }
        }
    }

    @Test func truncatedStreamsGiveZlibsResult() throws {
        let encoder = HuffmanOnlyDeflate()
        var fragments: [UInt8] = []
        for array in try HuffmanOnlyDeflateTests.stroke3Arrays().prefix(3) { encoder.append(array, to: &fragments) }
        let streams = [fragments, HuffmanOnlyDeflateTests.zlibDeflate(try Self.inputs()[4].bytes, level: 6, strategy: Z_DEFAULT_STRATEGY)]
        for (number, stream) in streams.enumerated() {
            for end in 0...stream.count {
                Self.expectZlibResult(Array(stream.prefix(end)), capacity: 100_000, "stream \(number) cut at byte \(end)")
            }
        }
    }

    @Test func damagedStreamsGiveZlibsResult() throws {
        let encoder = HuffmanOnlyDeflate()
        var fragments: [UInt8] = []
        for array in try HuffmanOnlyDeflateTests.stroke3Arrays().prefix(2) { encoder.append(array, to: &fragments) }
        DeflateFragmentEncoder.appendStoredBlock([], final: true, to: &fragments)
        let streams = [
            fragments, HuffmanOnlyDeflateTests.zlibDeflate(try Self.inputs()[4].bytes, level: 9, strategy: Z_DEFAULT_STRATEGY),
            HuffmanOnlyDeflateTests.zlibDeflate(try Self.inputs()[4].bytes, level: 6, strategy: Z_FIXED),
        ]
        for (number, stream) in streams.enumerated() {
            // Every bit of the first 64 bytes (the block headers and code lengths), every 7th after.
            for bit in stride(from: 0, to: stream.count * 8, by: 1) where bit < 512 || bit % 7 == 0 {
                var damaged = stream
                damaged[bit / 8] ^= 1 << UInt8(bit % 8)
                Self.expectZlibResult(damaged, capacity: 100_000, "stream \(number), bit \(bit) flipped")
            }
        }
        for seed: UInt64 in 1...200 {
            let noise = HuffmanOnlyDeflateTests.randomBytes(Int(seed % 64) + 1, seed: seed)
            Self.expectZlibResult(noise, capacity: 1_000, "noise \(seed)")
        }
    }
}
