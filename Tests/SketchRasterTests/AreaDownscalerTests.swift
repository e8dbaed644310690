import SketchCore
import SketchRaster
import Testing

@Suite struct AreaDownscalerTests {
    @Test("resampling to the same size is the identity")
    func sameSizeIsIdentity() {
        let image = GrayImage(width: 9, height: 9, pixels: (0..<81).map { UInt8($0 * 3) })
        #expect(AreaDownscaler(side: 9).resample(image) == image)
    }

    @Test("halving averages each 2x2 block exactly, rounding half up")
    func halvingAveragesBlocks() {
        let image = GrayImage(width: 4, height: 4, pixels: [0, 2, 10, 11,
                                                            4, 8, 10, 11,
                                                            255, 255, 0, 0,
                                                            255, 254, 0, 1])
        #expect(AreaDownscaler(side: 2).resample(image).pixels == [4, 11, 255, 0])
    }

    @Test("a non-integer factor weights border pixels by their covered fraction")
    func fractionalCoverage() {
        // 3 -> 2: output 0 covers source [0, 1.5): (60*1 + 0*0.5) / 1.5 = 40.
        let image = GrayImage(width: 3, height: 3, pixels: [60, 0, 120, 60, 0, 120, 60, 0, 120])
        #expect(AreaDownscaler(side: 2).resample(image).pixels == [40, 80, 40, 80])
    }

    @Test("upscaling copies interior pixels and blends across source boundaries by area")
    func upscalingBlendsByArea() {
        // 2 -> 3: footprint 2/3; output 1 covers [2/3, 4/3): half of each source pixel.
        let image = GrayImage(width: 2, height: 1, pixels: [0, 90])
        let out = AreaDownscaler(side: 3).resample(image)
        #expect(out.pixels[3..<6] == [0, 45, 90])
        // The 2x1 image is framed in a 2x2 square (origin -0.5): output row 0 covers [-0.5, 1/6),
        // three quarters white padding: 0.75 * 255 + 0.25 * [0, 45, 90].
        #expect(out.pixels[0..<3] == [191, 203, 214])
    }

    @Test("non-square images keep their aspect ratio with white padding")
    func nonSquareIsPaddedWithWhite() {
        let tall = GrayImage(width: 2, height: 4, filledWith: 0)
        let out = AreaDownscaler(side: 4).resample(tall)
        #expect(out.pixels == [255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255])
    }

    @Test("an empty image resamples to all white")
    func emptyIsWhite() {
        #expect(AreaDownscaler(side: 3).resample(GrayImage(width: 0, height: 0, pixels: [])).pixels == [UInt8](repeating: 255, count: 9))
    }

    @Test("a 1111-pixel downscale to 256 keeps a uniform image uniform and averages a half-black one to gray")
    func largeDownscale() {
        #expect(AreaDownscaler(side: 256).resample(GrayImage(width: 1111, height: 1111, filledWith: 77)).pixels
                .allSatisfy { $0 == 77 })
        let halves = GrayImage(width: 2, height: 2, pixels: [0, 255, 0, 255])
        #expect(AreaDownscaler(side: 1).resample(halves).pixels == [128])
    }
}
