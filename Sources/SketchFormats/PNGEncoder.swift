import CDeflate
import SketchCore

/// Encodes 8-bit gray or RGB pixels as PNG bytes, built for sketches: one filter type for every row
/// (``RowFilter``), the image data deflated in one IDAT chunk.
///
/// Most of a gray sketch raster is one background value with thin strokes, so runs of one byte
/// value and rows equal to the row above are nearly all there is to find: gray images are deflated
/// by ``ScanlineDeflate`` (matches at one pixel and, for unfiltered rows, one scanline back). The
/// three channels of an RGB image (time-channel rasters, contact sheets) differ, so their runs are
/// of whole pixels: RGB images are deflated by libdeflate, whose matches at any distance find the
/// channels' repeats, at a level chosen by how many images of the kind are written
/// (``RGBDeflateLevel``). Choices measured on the shared data (Benchmarks/README.md, "Raster
/// pipelines"): each is smaller on average than libpng's adaptive per-row filters with zlib level
/// 6, which wrote the tool's PNGs before, and than zlib level 6 on the same unfiltered RGB rows,
/// which wrote RGB PNGs in between. `Tests/python/test_png_pixels.py`
/// pins that the decoded pixels of every PNG-writing pipeline and of contact sheets are unchanged and
/// their bytes no larger.
/// The chunks are those libpng's simplified writer emitted: IHDR, sRGB (perceptual), IDAT, IEND.
public enum PNGEncoder {
    /// The one PNG filter type applied to every row of an image, chosen by the kind of image.
    public enum RowFilter: UInt8, Sendable {
        /// No filter: rasters rendered from strokes (one background value, thin antialiased
        /// strokes), whose runs and repeated rows ``ScanlineDeflate`` finds as they are, and RGB images.
        case none = 0
        /// Paeth: gray images with wide gradients (TU-Berlin PNGs box-resampled), where the
        /// prediction errors form the runs.
        case paeth = 4
    }

    /// libdeflate's compression level for an RGB image, chosen by how many images of the kind a
    /// command writes (Benchmarks/README.md, "Time channels: stroked once, libdeflate for RGB").
    public enum RGBDeflateLevel: Int32, Sendable {
        /// Level 5: raster payloads, one image per record (time-channel rasters); the fastest
        /// level whose PNGs are no larger on average than zlib level 6's.
        case perRecord = 5
        /// Level 10 (near-optimal parsing): pictures a command writes once (contact sheets, parity
        /// overlays), where size counts for more than time; levels 5 to 9 make some larger than
        /// zlib level 6 does.
        case perCommand = 10
    }

    /// PNG bytes of a gray image (colour type 0, 8 bits).
    public static func encode(_ image: GrayImage, filter: RowFilter = .none) throws(FormatError) -> [UInt8] {
        try encode(
            pixels: image.pixels, width: image.width, height: image.height, colourType: 0, channels: 1, filter: filter,
            level: .perRecord)
    }

    /// PNG bytes of a uint8 raster payload: `(H, W)` or `(H, W, 1)` as gray, `(H, W, 3)` as RGB
    /// (``RGBDeflateLevel/perRecord``); nil for any other payload.
    public static func encode(raster payload: TensorPayload, filter: RowFilter = .none) throws(FormatError) -> [UInt8]? {
        guard case let .uint8(pixels, shape) = payload else { return nil }
        switch (shape.count, shape.last) {
        case (2, _), (3, 1): return try encode(GrayImage(width: shape[1], height: shape[0], pixels: pixels), filter: filter)
        case (3, 3): return try encodeRGB(pixels, width: shape[1], height: shape[0], filter: filter, level: .perRecord)
        default: return nil
        }
    }

    /// PNG bytes of an RGB image (colour type 2, 8 bits); `rgb` holds 3 bytes per pixel, row-major.
    public static func encodeRGB(
        _ rgb: [UInt8], width: Int, height: Int, filter: RowFilter = .none, level: RGBDeflateLevel = .perCommand
    ) throws(FormatError) -> [UInt8] {
        try encode(pixels: rgb, width: width, height: height, colourType: 2, channels: 3, filter: filter, level: level)
    }

    /// Largest scanline data written, 2³⁰ bytes (rows with their filter bytes): the one IDAT chunk's
    /// length stays under PNG's 2³¹ − 1 whatever deflate's worst case, and one deflate call takes it.
    static let maximumScanlineBytes = 1 << 30

    private static func encode(
        pixels: [UInt8], width: Int, height: Int, colourType: UInt8, channels: Int, filter: RowFilter,
        level: RGBDeflateLevel
    ) throws(FormatError) -> [UInt8] {
        guard width > 0, height > 0, width < maximumScanlineBytes, height < maximumScanlineBytes,
            pixels.count == width * height * channels
        else {
            throw FormatError(.png, "pixel buffer does not match \(width)x\(height)x\(channels)")
        }
        let rowBytes = width * channels
        guard (rowBytes + 1) * height <= maximumScanlineBytes else {
            throw FormatError(.png, "image too large for one PNG: \(width)x\(height)x\(channels) is over \(maximumScanlineBytes) bytes")
        }
        let filtered = filteredRows(pixels, rowBytes: rowBytes, height: height, channels: channels, filter: filter)
        let deflated =
            channels == 1
            ? filtered.withUnsafeBufferPointer {
                ScanlineDeflate().deflate($0, stride: rowBytes + 1, pixelBytes: channels, rowAbove: filter == .none)
            }
            : try deflateImageData(filtered, level: level)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(8 + 25 + 13 + 12 + deflated.count + 12)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, colourType, 0, 0, 0]  // bit depth, colour type, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("sRGB", [0], to: &png)  // rendering intent: perceptual
        appendChunk("IDAT", deflated, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The scanlines as PNG stores them: each row preceded by its filter type and filtered by it.
    private static func filteredRows(
        _ pixels: [UInt8], rowBytes: Int, height: Int, channels: Int, filter: RowFilter
    ) -> [UInt8] {
        let stride = rowBytes + 1
        return [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                let source = source.baseAddress!
                for row in 0..<height {
                    let line = source + row * rowBytes
                    let out = buffer.baseAddress! + row * stride
                    out[0] = filter.rawValue
                    switch filter {
                    case .none:
                        UnsafeMutableRawPointer(out + 1).copyMemory(from: line, byteCount: rowBytes)
                    case .paeth:
                        paeth(line, above: row == 0 ? nil : line - rowBytes, rowBytes: rowBytes, channels: channels, into: out + 1)
                    }
                }
            }
            count = stride * height
        }
    }

    /// PNG's Paeth filter of one row: each byte less the predictor among left, above and upper-left
    /// (0 outside the image) nearest to left + above − upper-left, ties to left, then above.
    private static func paeth(
        _ line: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, rowBytes: Int, channels: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        guard let above else {
            // First row: above and upper-left are 0, so the predictor is left (Sub).
            for i in 0..<rowBytes { out[i] = line[i] &- (i >= channels ? line[i - channels] : 0) }
            return
        }
        for i in 0..<channels { out[i] = line[i] &- above[i] }  // left and upper-left are 0: the predictor is above
        for i in channels..<max(channels, rowBytes) {
            let a = Int(line[i - channels])
            let b = Int(above[i])
            let c = Int(above[i - channels])
            let pa = abs(b - c)
            let pb = abs(a - c)
            let pc = abs(a + b - 2 * c)
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            out[i] = line[i] &- UInt8(truncatingIfNeeded: predictor)
        }
    }

    /// The zlib stream of `data`, deflated by libdeflate at `level` (matches at any distance in
    /// deflate's 32 KiB window; the same input and level give the same bytes).
    private static func deflateImageData(_ data: [UInt8], level: RGBDeflateLevel) throws(FormatError) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level.rawValue) else {
            throw FormatError(.png, "libdeflate could not allocate its compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = data.withUnsafeBytes { libdeflate_zlib_compress(compressor, $0.baseAddress, $0.count, buffer.baseAddress, bound) }
        }
        guard !output.isEmpty else { throw FormatError(.png, "libdeflate could not deflate the image") }
        return output
    }

    /// Appends one chunk: length, type, data, CRC-32 of type and data.
    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeStart = png.count
        type.withUTF8Buffer { png += $0 }
        png += data
        appendBigEndian(png[typeStart...].withUnsafeBytes { CRC32.checksum($0) }, to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
