import CZlib
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct ScanlineDeflateTests {
    /// zlib's inflate of a whole zlib stream into `size` bytes (nil when it fails or the size differs).
    static func inflated(_ stream: [UInt8], size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: size + 1)
        var length = uLongf(output.count)
        let status = uncompress(&output, &length, stream, uLong(stream.count))
        guard status == Z_OK, Int(length) == size else { return nil }
        return Array(output.prefix(size))
    }

    /// `height` unfiltered scanlines (filter byte 0) of a white `width`-wide sketch with a black
    /// diagonal, a vertical bar and a horizontal bar two pixels thick.
    static func sketchScanlines(width: Int, height: Int) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<height {
            var row = [UInt8](repeating: 255, count: width)
            for x in 0..<width where abs(x - y) < 2 || (x >= width / 3 && x < width / 3 + 3) || (y >= height / 2 && y < height / 2 + 2) {
                row[x] = x % 5 == 0 ? 128 : 0
            }
            rows += [0] + row
        }
        return rows
    }

    static func deflate(_ data: [UInt8], stride: Int, pixelBytes: Int = 1) -> [UInt8] {
        data.withUnsafeBufferPointer { ScanlineDeflate().deflate($0, stride: stride, pixelBytes: pixelBytes) }
    }

    /// zlib's deflate of `data` at level 6 with `Z_RLE`, the gray PNGs' encoder before this one.
    static func zlibRunLength(_ data: [UInt8]) -> Int {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 6, Z_DEFLATED, MAX_WBITS, 8, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
        var input = data
        let status = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        #expect(status == Z_STREAM_END)
        return Int(stream.total_out)
    }

    @Test("sketch scanlines inflate back to themselves and are smaller than zlib's Z_RLE stream")
    func sketchRoundTripIsSmallerThanRunLength() throws {
        for (width, height) in [(256, 256), (28, 28), (1, 40), (300, 7)] {
            let data = Self.sketchScanlines(width: width, height: height)
            let stream = Self.deflate(data, stride: width + 1)
            #expect(Self.inflated(stream, size: data.count) == data, "\(width)x\(height)")
            #expect(stream.count <= Self.zlibRunLength(data), "\(width)x\(height)")
        }
    }

    @Test("noise is stored, more than one block of symbols splits into blocks, and both inflate back")
    func noiseAndLongInputsRoundTrip() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<150_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let stream = Self.deflate(noise, stride: 1001)
        #expect(Self.inflated(stream, size: noise.count) == noise)
        #expect(stream.count <= ScanlineDeflate.bound(noise.count))
        // Stored: 5 bytes a block of 16,384 literals, zlib's header and Adler-32.
        #expect(stream.count <= noise.count + 5 * (noise.count / 16_384 + 1) + 6, "noise should be stored, not Huffman coded")
        // Few values: literals mostly, over several 16,384-symbol blocks of dynamic or fixed codes.
        let fewValues = noise.map { $0 & 3 }
        #expect(Self.inflated(Self.deflate(fewValues, stride: 1001), size: fewValues.count) == fewValues)
    }

    @Test("scanlines wider than deflate's window fall back to runs alone and still inflate back")
    func wideScanlinesRoundTrip() {
        let data = Self.sketchScanlines(width: 40_000, height: 3)
        #expect(Self.inflated(Self.deflate(data, stride: 40_001), size: data.count) == data)
    }

    @Test("RGB scanlines, runs of whole pixels, inflate back")
    func rgbRoundTrip() {
        let gray = Self.sketchScanlines(width: 48, height: 20)
        var rgb: [UInt8] = []
        for row in 0..<20 {
            rgb.append(0)
            for value in gray[(row * 49 + 1)..<(row * 49 + 49)] { rgb += [value, value &+ 40, 255 &- value] }
        }
        #expect(Self.inflated(Self.deflate(rgb, stride: 145, pixelBytes: 3), size: rgb.count) == rgb)
    }

    @Test("one byte, and a single repeated value, inflate back")
    func tinyInputsRoundTrip() {
        for data in [[0], [7, 7], [UInt8](repeating: 9, count: 1000)] as [[UInt8]] {
            #expect(Self.inflated(Self.deflate(data, stride: data.count), size: data.count) == data)
        }
    }
}

extension ScanlineDeflateTests {
    @Test("Adler-32 equals zlib's for every length around the 16-byte steps and the 5,536-byte folds, and for all-255 input")
    func adlerEqualsZlib() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let noise = (0..<20_000).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let ones = [UInt8](repeating: 255, count: 70_000)
        for data in [noise, ones] {
            for length in Array(0..<40) + [5_535, 5_536, 5_537, 11_072, 11_090, data.count] {
                let prefix = Array(data.prefix(length))
                let expected = UInt32(prefix.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) })
                #expect(prefix.withUnsafeBufferPointer { ScanlineDeflate.adler32($0) } == expected, "\(length)")
            }
        }
    }
}

extension ScanlineDeflateTests {
    /// Seeded scanlines of every shape the encoder meets and some it should not: runs of one value,
    /// rows repeating the row above whole or in part, noise, few values, in gray or RGB pixels.
    static func randomScanlines(_ random: inout SeededGenerator, width: Int, height: Int, pixelBytes: Int) -> [UInt8] {
        let rowBytes = width * pixelBytes
        var data: [UInt8] = []
        data.reserveCapacity(height * (rowBytes + 1))
        for row in 0..<height {
            data.append(UInt8(truncatingIfNeeded: random.next() % 5))
            var x = 0
            while x < rowBytes {
                let length = min(rowBytes - x, 1 + Int(random.next() % UInt64(max(1, rowBytes / 2))))
                switch random.next() % 4 {
                case 0:  // a run of one value
                    data += repeatElement(UInt8(truncatingIfNeeded: random.next()), count: length)
                case 1 where row > 0:  // the row above
                    let above = data.count - (rowBytes + 1)
                    for i in 0..<length { data.append(data[above + i]) }
                case 2:  // noise
                    for _ in 0..<length { data.append(UInt8(truncatingIfNeeded: random.next())) }
                default:  // few values
                    for _ in 0..<length { data.append(UInt8(truncatingIfNeeded: random.next() & 3) * 85) }
                }
                x += length
            }
        }
        return data
    }

    @Test("seeded scanlines of every shape, one encoder reused, inflate back within the bound")
    func seededScanlinesRoundTripWithinTheBound() {
        var random = SeededGenerator(seed: 0x5CA1_AB1E)
        let encoder = ScanlineDeflate()
        for case_ in 0..<400 {
            let pixelBytes = random.next() % 3 == 0 ? 3 : 1
            let width = 1 + Int(random.next() % (case_ % 10 == 0 ? 3000 : 300))
            let height = 1 + Int(random.next() % 40)
            let rowAbove = random.next() % 4 != 0
            let data = Self.randomScanlines(&random, width: width, height: height, pixelBytes: pixelBytes)
            let stream = data.withUnsafeBufferPointer {
                encoder.deflate($0, stride: width * pixelBytes + 1, pixelBytes: pixelBytes, rowAbove: rowAbove)
            }
            #expect(stream.count <= ScanlineDeflate.bound(data.count), "case \(case_)")
            #expect(Self.inflated(stream, size: data.count) == data, "case \(case_): \(width)×\(height)×\(pixelBytes)")
        }
    }
}
