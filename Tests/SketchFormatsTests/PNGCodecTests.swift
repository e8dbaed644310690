import SketchCore
import SketchFormats
import Testing

@Suite struct PNGCodecTests {
    static let gradient = GrayImage(width: 7, height: 5, pixels: (0..<35).map { UInt8($0 * 7) })

    @Test("a gray image survives encode then decode unchanged")
    func grayRoundTrip() throws {
        let bytes = try PNGEncoder.encode(Self.gradient)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try PNGImage.decodeGray(bytes) == Self.gradient)
    }

    @Test("gray images of every shape decode to their pixels with either row filter")
    func rowFiltersRoundTrip() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for (width, height) in [(1, 1), (1, 9), (9, 1), (3, 4), (31, 17)] {
            let pixels = (0..<width * height).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 59) &* 17  // few values, so runs and ties both occur
            }
            let image = GrayImage(width: width, height: height, pixels: pixels)
            for filter in [PNGEncoder.RowFilter.none, .paeth] {
                #expect(try PNGImage.decodeGray(try PNGEncoder.encode(image, filter: filter)) == image, "\(width)x\(height) \(filter)")
            }
        }
    }

    @Test(
        "wide gray sketches, whose rows repeat the row above at distances with up to 13 extra bits, decode to their pixels",
        arguments: [1024, 1280, 1500, 4097, 5792])
    func wideSketchesRoundTrip(width: Int) throws {
        var pixels = [UInt8](repeating: 255, count: width * 6)
        for row in 0..<6 {
            for x in stride(from: row, to: width, by: 97) { pixels[row * width + x] = 0 }
            pixels[row * width + width / 2] = 128
        }
        let image = GrayImage(width: width, height: 6, pixels: pixels)
        #expect(try PNGImage.decodeGray(try PNGEncoder.encode(image)) == image)
    }

    @Test("RGB images decode to their luma with either row filter")
    func rgbRowFiltersRoundTrip() throws {
        let rgb: [UInt8] = (0..<(5 * 4 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ ($0 % 3) &* 91) }
        let unfiltered = try PNGImage.decodeGray(try PNGEncoder.encodeRGB(rgb, width: 5, height: 4))
        #expect(try PNGImage.decodeGray(try PNGEncoder.encodeRGB(rgb, width: 5, height: 4, filter: .paeth)) == unfiltered)
    }

    @Test("an RGB image decodes to its BT.601 luma")
    func rgbDecodesToLuma() throws {
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
        let decoded = try PNGImage.decodeGray(try PNGEncoder.encodeRGB(rgb, width: 2, height: 2))
        // Pillow "L": (19595 R + 38470 G + 7471 B + 32768) >> 16
        #expect(decoded.pixels == [76, 150, 29, 18])
    }

    @Test("bytes without the PNG signature are rejected as not a PNG")
    func nonPNGIsRejected() {
        #expect(throws: FormatError(.png, "not a PNG file (bad signature)")) {
            try PNGImage.decodeGray(Array("hello, world".utf8))
        }
        #expect(throws: FormatError.self) { try PNGImage.decodeGray([]) }
    }

    @Test("a truncated PNG is rejected with libpng's reason, at every cut point")
    func truncatedIsRejected() throws {
        let bytes = try PNGEncoder.encode(Self.gradient)
        for cut in stride(from: 8, to: bytes.count - 12, by: 5) {
            #expect(throws: FormatError.self) { try PNGImage.decodeGray(Array(bytes.prefix(cut))) }
        }
    }

    @Test("a PNG with corrupted image data is rejected, not crashed on")
    func corruptDataIsRejected() throws {
        var bytes = try PNGEncoder.encode(Self.gradient)
        let idat = try #require(bytes.indices.first { bytes[$0..<($0 + 4)].elementsEqual(Array("IDAT".utf8)) })
        for offset in 6..<12 { bytes[idat + offset] ^= 0x5A }
        let error = try #require(throws: FormatError.self) { try PNGImage.decodeGray(bytes) }
        #expect(!error.reason.isEmpty)
    }

    /// `gradient`'s PNG bytes with the IHDR claiming `width` × `height` (CRC fixed).
    static func claimingSize(width: UInt32, height: UInt32) throws -> [UInt8] {
        var bytes = try PNGEncoder.encode(gradient)
        // IHDR is the first chunk: length (4), type (4), width (4), height (4), …, CRC after 13 data bytes.
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in data {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        put(width, at: 16)
        put(height, at: 20)
        put(crc32(bytes[12..<29]), at: 29)
        return bytes
    }

    @Test("an image over the pixel budget is refused from its header, before any pixel is decoded")
    func overBudgetIsRefused() throws {
        let error = try #require(throws: FormatError.self) { try PNGImage.decodeGray(try Self.claimingSize(width: 8192, height: 8192)) }
        #expect(
            error.reason == "image too large: 8192x8192 has a side over 5792 pixels, so it or its framing square would pass"
                + " the budget of 33554432 pixels (docs/limits.md)")
    }

    @Test("a 1,000,000 × 1 image, whose framing square would take 10¹² bytes, is refused from its header")
    func longThinImageIsRefused() throws {
        let error = try #require(throws: FormatError.self) { try PNGImage.decodeGray(try Self.claimingSize(width: 1_000_000, height: 1)) }
        #expect(error.reason.hasPrefix("image too large: 1000000x1 has a side over 5792 pixels"))
    }

    @Test("alpha is composited over white before the luma")
    func alphaOverWhite() {
        #expect(GrayConversion.overWhite(0, alpha: 0) == 255)
        #expect(GrayConversion.overWhite(0, alpha: 255) == 0)
        #expect(GrayConversion.overWhite(0, alpha: 128) == 127)
        #expect(GrayConversion.luma(red: 200, green: 200, blue: 200) == 200)
    }
}
