import CPNG
import Foundation
import SketchCore
import SketchIO

/// Decodes PNG files of any kind to 8-bit gray: 8-bit gray files of the usual form through
/// ``PNGGrayDirectDecoder`` (one inflate call, rows unfiltered in Swift; the same pixels), every
/// other file, and any such file it finds unusual, with libpng's setjmp-free "simplified" API.
///
/// Every PNG variant is accepted: 1/2/4/8/16-bit gray, gray+alpha, RGB, RGBA, palette (with or
/// without tRNS transparency), interlaced or not. Then `GrayConversion` composites alpha over white
/// and takes BT.601 luma:
/// - gray files of up to 8 bits without transparency are read as gray (`PNG_FORMAT_GRAY`: the
///   samples themselves, 1/2/4-bit ones scaled to 0–255; no luma or compositing is involved);
/// - other files of up to 8 bits per sample are expanded by libpng to 8-bit non-premultiplied RGBA
///   (`PNG_FORMAT_RGBA`);
/// - 16-bit files are read as 16-bit RGBA (`PNG_FORMAT_LINEAR_RGB_ALPHA`, which libpng returns
///   with premultiplied colour and, for files without gAMA, no gamma change) and reduced to 8 bits
///   by us, rounding `v * 255 / 65535`. Asking libpng for 8-bit output instead would hit
///   libpng bug #853 (wrong pixels for Adam7-interlaced 16-bit files, 1.6.39 included).
/// Corrupt, truncated or non-PNG input throws `FormatError` (the simplified API catches libpng's
/// errors internally; no longjmp crosses Swift frames).
public enum PNGImage {
    /// The pixel budget of one image and of every buffer derived from it, 2²⁵: decoding takes at
    /// most 2²⁵ × 9 bytes (16-bit RGBA plus the gray result, 288 MiB); docs/limits.md.
    public static let maximumPixelCount = 1 << 25
    /// Largest accepted width or height, 5792, the largest side whose square fits
    /// ``maximumPixelCount``: the image, and the white square of side `max(width, height)` a
    /// non-square image is framed in before resampling, stay within the budget. Checked from the
    /// header before any pixel buffer is allocated, so a 1,000,000 × 1 image is refused instead of
    /// asking for a 10¹²-byte square (TU-Berlin's images are 1111 × 1111).
    public static let maximumSide = 5792

    /// Decodes PNG bytes to gray (alpha over white).
    public static func decodeGray(_ bytes: [UInt8]) throws(FormatError) -> GrayImage {
        guard bytes.count >= 8, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw FormatError(.png, "not a PNG file (bad signature)")
        }
        if let image = bytes.withUnsafeBytes({ PNGGrayDirectDecoder.decode($0, maximumSide: maximumSide) }) {
            return image
        }
        return try decodeGrayWithLibPNG(bytes)
    }

    /// Decodes PNG bytes whose signature was checked to gray with libpng: every file
    /// ``PNGGrayDirectDecoder`` leaves to it (and, in tests, the files it decodes, to compare).
    package static func decodeGrayWithLibPNG(_ bytes: [UInt8]) throws(FormatError) -> GrayImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw FormatError(.png, message(of: &image)) }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0 else { throw FormatError(.png, "unsupported image size \(width)x\(height)") }
        guard width <= maximumSide, height <= maximumSide else {
            throw FormatError(
                .png,
                "image too large: \(width)x\(height) has a side over \(maximumSide) pixels, so it or its"
                    + " framing square would pass the budget of \(maximumPixelCount) pixels (docs/limits.md)")
        }
        let sixteenBit = image.format & png_uint_32(PNG_FORMAT_FLAG_LINEAR) != 0
        let gray: [UInt8]
        if image.format == png_uint_32(PNG_FORMAT_GRAY) {
            // 8-bit (or less) gray without transparency: libpng hands the samples over unchanged.
            var samples = [UInt8](repeating: 0, count: width * height)
            try finishRead(&image, into: &samples, componentsPerRow: width)
            gray = samples
        } else if sixteenBit {
            // PNG_FORMAT_LINEAR_RGB_ALPHA
            image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_LINEAR)
            var rgba = [UInt16](repeating: 0, count: width * height * 4)
            try finishRead(&image, into: &rgba, componentsPerRow: width * 4)
            gray = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
                rgba.withUnsafeBufferPointer { GrayConversion.grayOverWhite(premultipliedRGBA16: $0, into: buffer) }
                count = width * height
            }
        } else {
            image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            try finishRead(&image, into: &rgba, componentsPerRow: width * 4)
            gray = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
                rgba.withUnsafeBufferPointer { GrayConversion.grayOverWhite(rgba: $0, into: buffer) }
                count = width * height
            }
        }
        return GrayImage(width: width, height: height, pixels: gray)
    }

    /// Reads and decodes a PNG file; I/O failures are reported as `FormatError` naming the path.
    public static func readGray(path: String) throws(FormatError) -> GrayImage {
        let bytes: [UInt8]
        do {
            bytes = try fileBytes(path: path)
        } catch {
            throw FormatError(.png, error.description)
        }
        return try decodeGray(bytes)
    }

    /// The bytes of the PNG file at `path`, read whole under the one cap of every PNG file read
    /// (``readGray(path:)``'s, and the image pipelines' when they hash and decode the same bytes).
    package static func fileBytes(path: String) throws(IOError) -> [UInt8] {
        try InputFile.readAll(path, maximumBytes: InputFile.defaultStreamMaximumBytes)
    }

    /// Decodes the pixels; `componentsPerRow` is libpng's row stride, counted in samples, not bytes.
    private static func finishRead<Component>(
        _ image: inout png_image, into buffer: inout [Component],
        componentsPerRow: Int
    ) throws(FormatError) {
        let finished = buffer.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, png_int_32(componentsPerRow), nil)
        }
        guard finished != 0 else { throw FormatError(.png, message(of: &image)) }
    }

    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng could not decode the image" : text
    }
}
