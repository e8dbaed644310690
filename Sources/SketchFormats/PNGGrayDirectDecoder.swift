import CDeflate
import SketchCore

/// Decodes, without libpng, the one kind of PNG file most image datasets hold (TU-Berlin's among
/// them): 8-bit gray, not interlaced, no transparency. Its IDAT data is inflated in one call
/// (libdeflate's zlib decompressor) into a buffer sized from the checked header, and the rows are
/// unfiltered here; the result is the samples themselves, what libpng's simplified API returns
/// for such a file (``PNGImage``).
///
/// The decoder is strict, never lenient: it returns nil for every other kind of file and for
/// anything unusual about one of this kind, and ``PNGImage`` then hands the file to libpng, which
/// decodes it or names what is wrong with it. So where this decoder returns pixels, libpng
/// returns the same ones. Unusual means: a side of 0 or over the caller's maximum; a chunk whose
/// CRC-32 is wrong, that is cut off, longer than libpng's 8,000,000-byte chunk limit (64 KiB for
/// an ancillary chunk), out of its place, or repeated; a critical chunk other than IHDR, IDAT and
/// IEND (PLTE included); an ancillary chunk that is not one of `gAMA` (only a value libpng's
/// simplified API takes for sRGB, 45000–45910, so no gamma change is applied), `bKGD`, `pHYs`,
/// `tIME`, `tEXt` (more than 16 of them in all); bytes after IEND; a zlib window smaller than both
/// 32 KiB and the image data (libpng inflates row by row through that window); IDAT data that does
/// not inflate to exactly `height × (width + 1)` bytes using all of it; a row filter over 4.
/// libdeflate also decodes two forms of Huffman code that zlib refuses (a code-length code with
/// one symbol, and the unused codeword of a one-symbol code): a file using them, which no encoder
/// writes, decodes here where libpng would refuse it.
package enum PNGGrayDirectDecoder {
    /// libpng's limit on a chunk's length (`PNG_USER_CHUNK_MALLOC_MAX`), which it also applies
    /// to IDAT chunks of small images.
    static let maximumChunkBytes = 8_000_000
    /// Largest ancillary chunk accepted.
    static let maximumAncillaryBytes = 1 << 16
    /// Most ancillary chunks accepted in one file.
    static let maximumAncillaryChunks = 16
    /// The `gAMA` values libpng's simplified API treats as sRGB here (1/2.2 is 45455).
    static let sRGBGamma: ClosedRange<UInt32> = 45000...45910

    /// The gray image in `file` (a PNG whose signature was checked), or nil when libpng is to decode it.
    package static func decode(_ file: UnsafeRawBufferPointer, maximumSide: Int) -> GrayImage? {
        guard let header = header(file, maximumSide: maximumSide), let data = imageData(file) else { return nil }
        let (width, height) = header
        let filteredBytes = height * (width + 1)
        let filtered = [UInt8](unsafeUninitializedCapacity: filteredBytes) { buffer, count in
            count = data.withBytes(in: file) { inflate($0, into: buffer, expected: filteredBytes) } ? filteredBytes : 0
        }
        guard filtered.count == filteredBytes else { return nil }
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
            filtered.withUnsafeBufferPointer { rows in
                failed = !unfilter(rows.baseAddress!, width: width, height: height, into: buffer.baseAddress!)
            }
            count = width * height
        }
        return failed ? nil : GrayImage(width: width, height: height, pixels: pixels)
    }

    /// Width and height from an IHDR of this decoder's kind, with its CRC checked.
    private static func header(_ file: UnsafeRawBufferPointer, maximumSide: Int) -> (Int, Int)? {
        guard file.count >= 8 + 25, bigEndian(file, 8) == 13, bigEndian(file, 12) == ChunkType.IHDR, crcIsRight(file, at: 8, length: 13)
        else { return nil }
        let width = Int(bigEndian(file, 16))
        let height = Int(bigEndian(file, 20))
        // Bit depth 8, colour type 0 (gray), compression 0, filter method 0, not interlaced.
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height),
            file[24] == 8, file[25] == 0, file[26] == 0, file[27] == 0, file[28] == 0
        else { return nil }
        return (width, height)
    }

    /// Where the IDAT data lies: one range of the file, or the chunks' data joined.
    private enum ImageData {
        case range(Range<Int>)
        case joined([UInt8])

        func withBytes<Result>(in file: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            switch self {
            case .range(let range): body(UnsafeRawBufferPointer(rebasing: file[range]))
            case .joined(let bytes): bytes.withUnsafeBytes(body)
            }
        }
    }

    /// The chunks after IHDR walked and checked; the IDAT data, or nil for anything unusual.
    private static func imageData(_ file: UnsafeRawBufferPointer) -> ImageData? {
        var offset = 33
        var pieces: [Range<Int>] = []
        var ancillary: Set<UInt32> = []
        var ancillaryCount = 0
        var afterImageData = false
        while file.count - offset >= 12 {
            let length = Int(bigEndian(file, offset))
            let type = bigEndian(file, offset + 4)
            guard length <= maximumChunkBytes, file.count - offset - 12 >= length, crcIsRight(file, at: offset, length: length)
            else { return nil }
            let data = (offset + 8)..<(offset + 8 + length)
            offset = data.upperBound + 4
            switch type {
            case ChunkType.IDAT:
                guard !afterImageData else { return nil }
                pieces.append(data)
            case ChunkType.IEND:
                guard length == 0, !pieces.isEmpty, offset == file.count else { return nil }
                return pieces.count == 1 ? .range(pieces[0]) : .joined(pieces.flatMap { Array(file[$0]) })
            default:
                if !pieces.isEmpty { afterImageData = true }
                ancillaryCount += 1
                guard length <= maximumAncillaryBytes, ancillaryCount <= maximumAncillaryChunks,
                    acceptsAncillary(type, file[data], beforeImageData: pieces.isEmpty)
                else { return nil }
                if type != ChunkType.tEXt {
                    guard ancillary.insert(type).inserted else { return nil }
                }
            }
        }
        return nil
    }

    /// Whether an ancillary chunk leaves libpng's pixels as they are and is well formed.
    private static func acceptsAncillary(_ type: UInt32, _ data: UnsafeRawBufferPointer.SubSequence, beforeImageData: Bool) -> Bool {
        switch type {
        case ChunkType.gAMA:
            guard beforeImageData, data.count == 4 else { return false }
            let gamma = data.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return sRGBGamma.contains(gamma)
        case ChunkType.bKGD: return beforeImageData && data.count == 2 && data.first == 0
        case ChunkType.pHYs: return beforeImageData && data.count == 9
        case ChunkType.tIME: return data.count == 7
        case ChunkType.tEXt:
            guard let end = data.firstIndex(of: 0) else { return false }
            return (1...79).contains(end - data.startIndex)
        default: return false
        }
    }

    /// Inflates the zlib stream `compressed` into exactly `expected` bytes, all of it used.
    private static func inflate(_ compressed: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>, expected: Int) -> Bool
    {
        guard let first = compressed.first, first >> 4 <= 7 else { return false }
        let window = 1 << (Int(first >> 4) + 8)
        guard window >= 32768 || window >= expected, let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        var used = 0
        var produced = 0
        let result = libdeflate_zlib_decompress_ex(
            decompressor, compressed.baseAddress, compressed.count, output.baseAddress, expected, &used, &produced)
        return result == LIBDEFLATE_SUCCESS && used == compressed.count && produced == expected
    }

    /// The PNG row filters (none, sub, up, average, Paeth) undone for one byte per pixel; false
    /// for a filter type over 4.
    static func unfilter(_ rows: UnsafePointer<UInt8>, width: Int, height: Int, into pixels: UnsafeMutablePointer<UInt8>) -> Bool {
        for row in 0..<height {
            let source = rows + row * (width + 1) + 1
            let target = pixels + row * width
            let above: UnsafePointer<UInt8>? = row == 0 ? nil : UnsafePointer(pixels + (row - 1) * width)
            switch source[-1] {
            case 0:
                target.update(from: source, count: width)
            case 1:
                undoSub(source, into: target, width: width)
            case 2:
                guard let above else {
                    target.update(from: source, count: width)
                    break
                }
                undoUp(source, above: above, into: target, width: width)
            case 3:
                var left = source[0] &+ (above.map { $0[0] >> 1 } ?? 0)
                target[0] = left
                for x in 1..<max(1, width) {
                    let up = above.map { UInt16($0[x]) } ?? 0
                    left = source[x] &+ UInt8(truncatingIfNeeded: (UInt16(left) + up) >> 1)
                    target[x] = left
                }
            case 4:
                // Above the first row is zero: Paeth then picks the left pixel, as sub does.
                guard let above else {
                    undoSub(source, into: target, width: width)
                    break
                }
                var left = source[0] &+ above[0]
                target[0] = left
                for x in 1..<max(1, width) {
                    left = source[x] &+ paeth(left: left, up: above[x], upLeft: above[x - 1])
                    target[x] = left
                }
            default:
                return false
            }
        }
        return true
    }

    /// Sub: each byte plus the one to its left, the running value kept in a register.
    @inline(__always)
    private static func undoSub(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, width: Int) {
        var left = source[0]
        target[0] = left
        for x in 1..<max(1, width) {
            left = source[x] &+ left
            target[x] = left
        }
    }

    /// Up: each byte plus the one above, 32 at a time.
    @inline(__always)
    private static func undoUp(
        _ source: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, width: Int
    ) {
        typealias Lanes = SIMD32<UInt8>
        var x = 0
        while width - x >= Lanes.scalarCount {
            let sum =
                UnsafeRawPointer(source + x).loadUnaligned(as: Lanes.self) &+ UnsafeRawPointer(above + x).loadUnaligned(as: Lanes.self)
            UnsafeMutableRawPointer(target + x).storeBytes(of: sum, as: Lanes.self)
            x += Lanes.scalarCount
        }
        while x < width {
            target[x] = source[x] &+ above[x]
            x += 1
        }
    }

    /// The Paeth predictor: of left, up and up-left, the one nearest `left + up − upLeft` (ties in
    /// that order). Written as stb_image writes it, with a shorter chain from `left` than the
    /// PNG specification's three distances; the two agree on every input (a test checks all 2²⁴).
    @inline(__always)
    package static func paeth(left: UInt8, up: UInt8, upLeft: UInt8) -> UInt8 {
        let a = Int(left)
        let b = Int(up)
        let c = Int(upLeft)
        let threshold = 3 * c - (a + b)
        let low = min(a, b)
        let high = max(a, b)
        let belowHigh = high <= threshold ? low : c
        return UInt8(truncatingIfNeeded: threshold <= low ? high : belowHigh)
    }

    private static func crcIsRight(_ file: UnsafeRawBufferPointer, at chunk: Int, length: Int) -> Bool {
        CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[(chunk + 4)..<(chunk + 8 + length)])) == bigEndian(file, chunk + 8 + length)
    }

    @inline(__always)
    private static func bigEndian(_ file: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Chunk types as big-endian integers.
    private enum ChunkType {
        static let IHDR: UInt32 = 0x4948_4452
        static let IDAT: UInt32 = 0x4944_4154
        static let IEND: UInt32 = 0x4945_4E44
        static let gAMA: UInt32 = 0x6741_4D41
        static let bKGD: UInt32 = 0x624B_4744
        static let pHYs: UInt32 = 0x7048_5973
        static let tIME: UInt32 = 0x7449_4D45
        static let tEXt: UInt32 = 0x7445_5874
    }
}
