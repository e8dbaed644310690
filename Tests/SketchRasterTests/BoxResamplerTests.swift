import SketchCore
import SketchRaster
import Testing

/// Expected pixels below were produced by Pillow 13: `Image.frombytes("L", size, bytes(pixels))`
/// `.resize((side, side), Image.BOX)` (non-square inputs pasted on a white square first).
@Suite struct BoxResamplerTests {
    @Test("resampling to the same size is the identity")
    func sameSizeIsIdentity() {
        let image = GrayImage(width: 9, height: 9, pixels: (0..<81).map { UInt8($0 * 3) })
        #expect(BoxResampler(side: 9).resample(image) == image)
    }

    @Test("halving averages each 2x2 block, rounding half up after each axis like Pillow")
    func halvingAveragesBlocks() {
        let image = GrayImage(
            width: 4, height: 4,
            pixels: [
                0, 2, 10, 11,
                4, 8, 10, 11,
                255, 255, 0, 0,
                255, 254, 0, 1,
            ])
        // Bottom right: rows give (0+0)/2 = 0 and (0+1)/2 = 0.5 -> 1, then (0+1)/2 -> 1.
        #expect(BoxResampler(side: 2).resample(image).pixels == [4, 11, 255, 1])
    }

    @Test("a non-integer downscale averages the source pixels whose centres fall in the output pixel")
    func fractionalDownscaleCountsPixelCentres() {
        // 3 -> 2: output 0 spans [0, 1.5) and holds the centres 0.5 and 1.5 (right edge included): (60 + 0) / 2.
        let image = GrayImage(width: 3, height: 3, pixels: [60, 0, 120, 60, 0, 120, 60, 0, 120])
        #expect(BoxResampler(side: 2).resample(image).pixels == [30, 120, 30, 120])
    }

    @Test("upscaling copies the nearest source pixel, ties going to the higher index")
    func upscalingIsNearestNeighbour() {
        // 2 -> 3: output centres 1/3, 1, 5/3; the middle one is equally far from both sources.
        let image = GrayImage(width: 2, height: 2, pixels: [0, 90, 0, 90])
        #expect(BoxResampler(side: 3).resample(image).pixels == [0, 90, 90, 0, 90, 90, 0, 90, 90])
    }

    @Test("non-square images keep their aspect ratio with white padding")
    func nonSquareIsPaddedWithWhite() {
        let tall = GrayImage(width: 2, height: 4, filledWith: 0)
        let out = BoxResampler(side: 4).resample(tall)
        #expect(out.pixels == [255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255])
    }

    @Test("an odd amount of padding puts the extra white row at the bottom")
    func oddPaddingGoesBottomRight() {
        let wide = GrayImage(width: 2, height: 1, pixels: [0, 90])
        #expect(BoxResampler(side: 3).resample(wide).pixels == [0, 90, 90, 255, 255, 255, 255, 255, 255])
    }

    @Test("an empty image resamples to all white")
    func emptyIsWhite() {
        #expect(BoxResampler(side: 3).resample(GrayImage(width: 0, height: 0, pixels: [])).pixels == [UInt8](repeating: 255, count: 9))
    }

    @Test("a 1111-pixel downscale to 256 keeps a uniform image uniform and averages a half-black one to gray")
    func largeDownscale() {
        #expect(
            BoxResampler(side: 256).resample(GrayImage(width: 1111, height: 1111, filledWith: 77)).pixels
                .allSatisfy { $0 == 77 })
        let halves = GrayImage(width: 2, height: 2, pixels: [0, 255, 0, 255])
        #expect(BoxResampler(side: 1).resample(halves).pixels == [128])
    }

    @Test("a downscale whose width is not a multiple of the 16-column vector equals the per-pixel box mean")
    func vectorColumnsEqualThePerPixelMean() {
        var state: UInt32 = 7
        let source = GrayImage(
            width: 333, height: 333,
            pixels: (0..<(333 * 333)).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16)
            })
        // 333 → 37: every output pixel averages 9 source pixels per axis (the window of centre
        // (i + 0.5) · 9 holds 9i … 9i + 8), rounded after each axis with the weight ⌊0.5 + 2²² / 9⌋.
        let weight = Int(0.5 + (1 / 9.0) * Double(1 << 22))
        func rounded(_ sum: Int) -> Int { min(255, (sum * weight + (1 << 21)) >> 22) }
        var rows = [Int](repeating: 0, count: 333 * 37)
        for row in 0..<333 {
            for column in 0..<37 {
                rows[row * 37 + column] = rounded((0..<9).reduce(0) { $0 + Int(source.pixels[row * 333 + column * 9 + $1]) })
            }
        }
        var expected: [UInt8] = []
        for row in 0..<37 {
            for column in 0..<37 {
                expected.append(UInt8(rounded((0..<9).reduce(0) { $0 + rows[(row * 9 + $1) * 37 + column] })))
            }
        }
        #expect(BoxResampler(side: 37).resample(source).pixels == expected)
    }
}
