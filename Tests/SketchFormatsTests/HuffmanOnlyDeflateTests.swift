import CZlib
import Foundation
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct HuffmanOnlyDeflateTests {
    /// Deterministic pseudo-random bytes (xorshift), each drawn from `0..<range`.
    static func randomBytes(_ count: Int, seed: UInt64, range: Int = 256) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(Int(state % UInt64(range)))
        }
    }

    /// Bytes whose value counts follow the Fibonacci numbers 1, 2, 3, 5, …: with end-of-block's
    /// count of 1, an unlimited Huffman code for `symbols` such values is `symbols` bits deep.
    static func fibonacciBytes(symbols: Int) -> [UInt8] {
        var counts = [1, 2]
        while counts.count < symbols { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        return counts.prefix(symbols).enumerated().flatMap { value, count in [UInt8](repeating: UInt8(value), count: count) }
    }

    /// Bytes whose values (about two thirds of them) have counts of powers of two below
    /// 2^`levels`, drawn from `seed`.
    static func layeredBytes(levels: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        return (0..<256).flatMap { value -> [UInt8] in
            let present = next() % 3 != 0
            let count = 1 << Int(next() % UInt64(levels))
            return present ? [UInt8](repeating: UInt8(value), count: count) : []
        }
    }

    /// The int16 stroke-3 bytes (`dx dy pen_lifted` rows) of the SampleData simplified drawings.
    static func stroke3Arrays() throws -> [[UInt8]] {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/simplified")
        let paths = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            directory.appendingPathComponent($0).path
        }
        return try TestSupport.readAll(paths).records.map { record in
            var values: [Double] = []
            var previous = (x: 0.0, y: 0.0)
            for stroke in record.drawing.strokes {
                for index in 0..<stroke.count {
                    values += [stroke.x[index] - previous.x, stroke.y[index] - previous.y, index == stroke.count - 1 ? 1 : 0]
                    previous = (stroke.x[index], stroke.y[index])
                }
            }
            var raw: [UInt8] = []
            NumpyObjectArrayPickle.appendRawValues(values, float64: false, to: &raw)
            return raw
        }
    }

    /// Deflates `input`, checks that zlib inflates the fragment to it, and returns the fragment.
    @discardableResult
    static func roundTrip(_ input: [UInt8], encoder: HuffmanOnlyDeflate, _ comment: Comment) -> [UInt8] {
        var fragment: [UInt8] = []
        encoder.append(input, to: &fragment)
        let inflated = try? RawInflate.inflate(fragment[...], capacity: input.count + 1)
        #expect(inflated?.isValid == true && inflated?.leftover == 0, comment)
        #expect(inflated?.bytes == input, comment)
        #expect(inflated?.ended == false, comment)
        return fragment
    }

    @Test func smallAndSingleValueInputsInflateToThemselves() {
        let encoder = HuffmanOnlyDeflate()
        Self.roundTrip([], encoder: encoder, "empty")
        for byte: UInt8 in [0, 1, 7, 255] {
            Self.roundTrip([byte], encoder: encoder, "one \(byte)")
            for count in [2, 30, 1_000, 65_536] {
                Self.roundTrip([UInt8](repeating: byte, count: count), encoder: encoder, "\(count) × \(byte)")
            }
        }
        Self.roundTrip((0...255).map { UInt8($0) }, encoder: encoder, "every byte value once")
        Self.roundTrip((0..<4_096).map { UInt8($0 % 256) }, encoder: encoder, "every byte value 16 times")
    }

    @Test func randomBytesOfManySizesInflateToThemselves() {
        let encoder = HuffmanOnlyDeflate()
        for (index, count) in [2, 3, 17, 100, 249, 250, 1_000, 4_097, 16_384, 40_000, 65_535, 65_536].enumerated() {
            for range in [2, 5, 40, 256] {
                Self.roundTrip(
                    Self.randomBytes(count, seed: UInt64(index * 1_000 + range), range: range), encoder: encoder, "\(count) in 0..<\(range)"
                )
            }
        }
    }

    @Test func skewedFrequenciesGetCodesOfAtMost15BitsAndCodeLengthCodesOfAtMost7() {
        let encoder = HuffmanOnlyDeflate()
        // 15 Fibonacci-weighted values fit in 15 bits; 16 and more need the literal code limited
        // (zlib's inflate rejects longer codes; checked by instrumenting the limiting step).
        for symbols in [15, 16, 17, 22] {
            let skewed = Self.fibonacciBytes(symbols: symbols)
            Self.roundTrip(skewed, encoder: encoder, "\(symbols) Fibonacci-weighted values")
            Self.roundTrip(
                skewed + Self.randomBytes(300, seed: UInt64(symbols)), encoder: encoder, "\(symbols) Fibonacci-weighted values and noise")
        }
        // Literal lengths of many values in short runs: the code-length code is limited to 7
        // bits (and the literal code to 15), as instrumenting the limiting step showed.
        Self.roundTrip(Self.layeredBytes(levels: 14, seed: 284), encoder: encoder, "layered counts")
    }

    @Test func incompressibleSmallInputsAreStoredAndOthersOneDynamicBlock() throws {
        let encoder = HuffmanOnlyDeflate()
        // Block header bits (least significant first): BFINAL 0, then BTYPE 00 stored or 10 dynamic.
        let stored = Self.roundTrip((0..<40).map { UInt8($0 * 6) }, encoder: encoder, "40 distinct bytes")
        #expect(stored.first == 0)
        #expect(stored.count == 40 + 5)
        let array = try #require(Self.stroke3Arrays().max { $0.count < $1.count })
        let dynamic = Self.roundTrip(array, encoder: encoder, "the longest drawing")
        #expect(dynamic.first.map { $0 & 0b111 } == 0b100)
        #expect(dynamic.suffix(4) == [0x00, 0x00, 0xFF, 0xFF])
        #expect(dynamic.count < array.count * 2 / 3)
    }

    @Test func sameInputSameBytesWhateverTheEncoderDidBefore() {
        let first = Self.randomBytes(600, seed: 9, range: 50)
        let reused = HuffmanOnlyDeflate()
        var before: [UInt8] = []
        reused.append(first, to: &before)
        var between: [UInt8] = []
        reused.append(Self.fibonacciBytes(symbols: 25), to: &between)
        reused.append(Self.randomBytes(65_536, seed: 1), to: &between)
        var after: [UInt8] = [7]
        reused.append(first, to: &after)
        var fresh: [UInt8] = []
        HuffmanOnlyDeflate().append(first, to: &fresh)
        #expect(Array(after.dropFirst()) == before)
        #expect(fresh == before)
    }

    @Test func fragmentsEndByteAlignedAndConcatenateIntoOneStream() throws {
        let encoder = HuffmanOnlyDeflate()
        let first = Self.randomBytes(1_000, seed: 3, range: 30)
        let second = Self.fibonacciBytes(symbols: 20)
        var stream = Self.roundTrip(first, encoder: encoder, "first") + Self.roundTrip([], encoder: encoder, "empty")
        stream += Self.roundTrip(second, encoder: encoder, "second")
        DeflateFragmentEncoder.appendStoredBlock([], final: true, to: &stream)
        let inflated = try RawInflate.inflate(stream[...], capacity: first.count + second.count + 1)
        #expect(inflated.isValid && inflated.leftover == 0)
        #expect(inflated.bytes == first + second)
        #expect(inflated.ended)
    }

    @Test func realStroke3ArraysInflateToThemselvesNoLargerThanZlibHuffmanOnly() throws {
        let encoder = HuffmanOnlyDeflate()
        let arrays = try Self.stroke3Arrays()
        #expect(arrays.count > 100)
        var ours = 0
        var zlibs = 0
        for (index, array) in arrays.enumerated() {
            ours += Self.roundTrip(array, encoder: encoder, "drawing \(index)").count
            zlibs += Self.zlibHuffmanOnly(array).count
        }
        #expect(ours <= zlibs, "\(ours) bytes against zlib's \(zlibs)")
    }

    /// zlib's `Z_HUFFMAN_ONLY` raw deflate of `input` ended with a sync flush: the baseline size.
    static func zlibHuffmanOnly(_ input: [UInt8]) -> [UInt8] {
        zlibDeflate(input, level: 6, strategy: Z_HUFFMAN_ONLY, flush: Z_SYNC_FLUSH)
    }

    /// zlib's raw deflate of `input` at `level` with `strategy`, ended by `flush` (`Z_FINISH`: a
    /// final block; `Z_SYNC_FLUSH`: an empty stored block, so more may follow).
    static func zlibDeflate(_ input: [UInt8], level: Int32, strategy: Int32, flush: Int32 = Z_FINISH) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, strategy, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return []
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                _ = deflate(&stream, flush)
            }
        }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
