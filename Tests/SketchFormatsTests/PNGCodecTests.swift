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

    @Test("an RGB image decodes to its BT.601 luma")
    func rgbDecodesToLuma() throws {
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]
        let decoded = try PNGImage.decodeGray(try PNGEncoder.encodeRGB(rgb, width: 2, height: 2))
        // Pillow "L": (19595 R + 38470 G + 7471 B + 32768) >> 16
        #expect(decoded.pixels == [76, 150, 29, 18])
    }

    @Test("bytes without the PNG signature are rejected as not a PNG")
    func nonPNGIsRejected() {
        #expect(throws: PNGError("not a PNG file (bad signature)")) {
            try PNGImage.decodeGray(Array("hello, world".utf8))
        }
        #expect(throws: PNGError.self) { try PNGImage.decodeGray([]) }
    }

    @Test("a truncated PNG is rejected with libpng's reason, at every cut point")
    func truncatedIsRejected() throws {
        let bytes = try PNGEncoder.encode(Self.gradient)
        for cut in stride(from: 8, to: bytes.count - 12, by: 5) {
            #expect(throws: PNGError.self) { try PNGImage.decodeGray(Array(bytes.prefix(cut))) }
        }
    }

    @Test("a PNG with corrupted image data is rejected, not crashed on")
    func corruptDataIsRejected() throws {
        var bytes = try PNGEncoder.encode(Self.gradient)
        let idat = try #require(bytes.indices.first { bytes[$0..<($0 + 4)].elementsEqual(Array("IDAT".utf8)) })
        for offset in 6..<12 { bytes[idat + offset] ^= 0x5A }
        let error = try #require(throws: PNGError.self) { try PNGImage.decodeGray(bytes) }
        #expect(!error.reason.isEmpty)
    }

    @Test("alpha is composited over white before the luma")
    func alphaOverWhite() {
        #expect(GrayConversion.overWhite(0, alpha: 0) == 255)
        #expect(GrayConversion.overWhite(0, alpha: 255) == 0)
        #expect(GrayConversion.overWhite(0, alpha: 128) == 127)
        #expect(GrayConversion.luma(red: 200, green: 200, blue: 200) == 200)
    }
}
