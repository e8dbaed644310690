import CZlib
import SketchCore
import SketchFormats
import SketchTestSupport
import Testing

/// The PNG files decoded without libpng give libpng's pixels, and every other file is left to libpng.
@Suite struct PNGGrayDirectDecoderTests {
    /// A deterministic image with few values, so runs and Paeth ties both occur.
    static func image(width: Int, height: Int) -> GrayImage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = (0..<width * height).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 59) &* 17
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// One chunk: length, type, data, CRC-32.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// Row `row` filtered with PNG filter `type` (one byte per pixel).
    static func filtered(_ image: GrayImage, row: Int, type: UInt8) -> [UInt8] {
        func at(_ x: Int, _ y: Int) -> Int { x < 0 || y < 0 ? 0 : Int(image.pixels[y * image.width + x]) }
        return [type]
            + (0..<image.width).map { x in
                let (value, left, up, upLeft) = (at(x, row), at(x - 1, row), at(x, row - 1), at(x - 1, row - 1))
                let predicted: Int
                switch type {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let (pa, pb, pc) = (abs(up - upLeft), abs(left - upLeft), abs(left + up - 2 * upLeft))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: predicted = 0
                }
                return UInt8(truncatingIfNeeded: value - predicted)
            }
    }

    /// An 8-bit gray PNG of `image`, its rows filtered with types cycling through `filters`, its
    /// zlib stream split into `pieces` IDAT chunks, with `before` chunks ahead of the image data.
    static func png(
        _ image: GrayImage, filters: [UInt8] = [0, 1, 2, 3, 4], pieces: Int = 1, before: [[UInt8]] = [], after: [[UInt8]] = [],
        ihdr: [UInt8] = [8, 0, 0, 0, 0]
    ) -> [UInt8] {
        let raw = (0..<image.height).flatMap { filtered(image, row: $0, type: filters[$0 % filters.count]) }
        return png(scanlines: raw, width: image.width, height: image.height, pieces: pieces, before: before, after: after, ihdr: ihdr)
    }

    /// A PNG of `width`×`height` whose image data is the zlib stream of `scanlines` as they are
    /// (filter bytes included), split into `pieces` IDAT chunks, with `before` and `after` chunks
    /// around them.
    static func png(
        scanlines: [UInt8], width: Int, height: Int, pieces: Int = 1, before: [[UInt8]] = [], after: [[UInt8]] = [],
        ihdr: [UInt8] = [8, 0, 0, 0, 0]
    ) -> [UInt8] {
        var bound = compressBound(UInt(scanlines.count))
        var stream = [UInt8](repeating: 0, count: Int(bound))
        _ = compress2(&stream, &bound, scanlines, UInt(scanlines.count), 9)
        stream.removeLast(stream.count - Int(bound))
        let step = (stream.count + pieces - 1) / pieces
        let idat = stride(from: 0, to: stream.count, by: step).flatMap { chunk("IDAT", Array(stream[$0..<min($0 + step, stream.count)])) }
        let header = chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + ihdr)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header + before.flatMap { $0 } + idat + after.flatMap { $0 }
            + chunk("IEND", [])
    }

    static func direct(_ bytes: [UInt8]) -> GrayImage? {
        bytes.withUnsafeBytes { PNGGrayDirectDecoder.decode($0, maximumSide: PNGImage.maximumSide) }
    }

    /// The chunks TU-Berlin's PNGs carry around their image data.
    static let tuBerlinChunks = (
        before: [
            chunk("gAMA", bigEndian(45455)), chunk("bKGD", [0, 255]), chunk("pHYs", [0, 0, 0, 100, 0, 0, 0, 100, 0]),
            chunk("tIME", [7, 219, 12, 1, 10, 20, 30]),
        ],
        after: [chunk("tEXt", Array("date:modify\u{0}2011-12-01".utf8))]
    )

    @Test("8-bit gray files with every row filter, in one or several IDAT chunks, decode to libpng's pixels without it")
    func directDecodeMatchesLibPNG() throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (31, 17), (150, 150)] {
            let image = Self.image(width: width, height: height)
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4], [4, 3, 2, 1]] {
                for pieces in [1, 3] {
                    let bytes = Self.png(
                        image, filters: filters, pieces: pieces, before: Self.tuBerlinChunks.before, after: Self.tuBerlinChunks.after)
                    let decoded = try #require(Self.direct(bytes), "\(width)x\(height) \(filters) \(pieces)")
                    #expect(decoded == image)
                    #expect(try PNGImage.decodeGrayWithLibPNG(bytes) == image)
                    #expect(try PNGImage.decodeGray(bytes) == image)
                }
            }
        }
    }

    @Test("files of other kinds, or with anything unusual, are left to libpng, which decodes them as before")
    func unusualFilesAreLeftToLibPNG() throws {
        let image = Self.image(width: 12, height: 7)
        var badCRC = Self.png(image)
        badCRC[badCRC.count - 13] ^= 1  // the last IDAT's CRC
        var trailing = Self.png(image)
        trailing.append(0)
        let cases: [(String, [UInt8])] = [
            ("gAMA 1.0, which libpng corrects", Self.png(image, before: [Self.chunk("gAMA", Self.bigEndian(100_000))])),
            ("sRGB chunk", Self.png(image, before: [Self.chunk("sRGB", [0])])),
            ("tRNS, transparency", Self.png(image, before: [Self.chunk("tRNS", [0, 0])])),
            ("interlaced", Self.png(image, ihdr: [8, 0, 0, 0, 1])),
            ("16-bit", Self.png(image, ihdr: [16, 0, 0, 0, 0])),
            ("a chunk's CRC wrong", badCRC),
            ("bytes after IEND", trailing),
            ("an unknown critical chunk", Self.png(image, before: [Self.chunk("ABCD", [1])])),
            ("a row filter over 4", Self.png(image, filters: [5])),
            ("IDAT chunks apart", Self.png(image, after: [Self.chunk("tEXt", Array("a\u{0}b".utf8)), Self.chunk("IDAT", [])])),
        ]
        for (name, bytes) in cases {
            #expect(Self.direct(bytes) == nil, "\(name)")
            let libpng = Result { () throws(FormatError) in try PNGImage.decodeGrayWithLibPNG(bytes) }
            let decoded = Result { () throws(FormatError) in try PNGImage.decodeGray(bytes) }
            #expect(String(describing: decoded) == String(describing: libpng), "\(name)")
        }
    }

    @Test("image data that inflates to more or fewer bytes than the header's rows is left to libpng, which refuses it")
    func wrongDataSizeIsLeftToLibPNG() throws {
        let image = Self.image(width: 12, height: 7)
        for claimed in [6, 8] {
            var bytes = Self.png(image)
            bytes.replaceSubrange(8..<33, with: Self.chunk("IHDR", Self.bigEndian(12) + Self.bigEndian(UInt32(claimed)) + [8, 0, 0, 0, 0]))
            #expect(Self.direct(bytes) == nil)
            if claimed == 8 { #expect(throws: FormatError.self) { try PNGImage.decodeGray(bytes) } }
        }
    }
}

extension PNGGrayDirectDecoderTests {
    @Test("seeded scanlines of any filter bytes and lengths: wherever the direct decoder gives pixels, libpng gives the same")
    func seededScanlinesDecodeAsLibPNGDecodesThem() throws {
        var random = SeededGenerator(seed: 0xD1FF)
        var bothDecoded = 0
        for case_ in 0..<300 {
            let (width, height) = (1 + Int(random.next() % 40), 1 + Int(random.next() % 40))
            var scanlines: [UInt8] = []
            for _ in 0..<height {
                // Mostly the five filters, now and then a byte no filter has.
                scanlines.append(UInt8(random.next() % 32 == 0 ? 5 + random.next() % 251 : random.next() % 5))
                for _ in 0..<width { scanlines.append(random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : 0) }
            }
            if random.next() % 16 == 0 { scanlines.removeLast(1 + Int(random.next() % UInt64(scanlines.count))) }
            if random.next() % 16 == 0 { scanlines += [0, 0, 0] }
            let bytes = Self.png(scanlines: scanlines, width: width, height: height)
            let libpng = try? PNGImage.decodeGrayWithLibPNG(bytes)
            if let direct = Self.direct(bytes) {
                #expect(direct == libpng, "case \(case_)")
                bothDecoded += 1
            }
            #expect((try? PNGImage.decodeGray(bytes)) == libpng, "case \(case_)")
        }
        #expect(bothDecoded > 100)
    }
}

@Test("the direct decoder's Paeth predictor agrees with the PNG specification's on every left, up and up-left")
func paethAgreesWithTheSpecificationEverywhere() {
    var disagreements = 0
    for left in 0...255 {
        for up in 0...255 {
            for upLeft in 0...255 {
                let estimate = left + up - upLeft
                let (pa, pb, pc) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                let specified = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                let predicted = PNGGrayDirectDecoder.paeth(left: UInt8(left), up: UInt8(up), upLeft: UInt8(upLeft))
                if Int(predicted) != specified { disagreements += 1 }
            }
        }
    }
    #expect(disagreements == 0)
}
