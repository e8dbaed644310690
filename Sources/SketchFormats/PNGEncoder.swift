import CPNG
import SketchCore

/// Encodes 8-bit gray or RGB pixels as PNG bytes with libpng's `png_image_write_to_memory`.
public enum PNGEncoder {
    /// PNG bytes of a gray image (colour type 0, 8 bits).
    public static func encode(_ image: GrayImage) throws(FormatError) -> [UInt8] {
        try encode(
            pixels: image.pixels, width: image.width, height: image.height,
            format: png_uint_32(PNG_FORMAT_GRAY), channels: 1)
    }

    /// PNG bytes of a uint8 raster payload: `(H, W)` or `(H, W, 1)` as gray, `(H, W, 3)` as RGB;
    /// nil for any other payload.
    public static func encode(raster payload: TensorPayload) throws(FormatError) -> [UInt8]? {
        guard case let .uint8(pixels, shape) = payload else { return nil }
        switch (shape.count, shape.last) {
        case (2, _), (3, 1): return try encode(GrayImage(width: shape[1], height: shape[0], pixels: pixels))
        case (3, 3): return try encodeRGB(pixels, width: shape[1], height: shape[0])
        default: return nil
        }
    }

    /// PNG bytes of an RGB image (colour type 2, 8 bits); `rgb` holds 3 bytes per pixel, row-major.
    public static func encodeRGB(_ rgb: [UInt8], width: Int, height: Int) throws(FormatError) -> [UInt8] {
        try encode(pixels: rgb, width: width, height: height, format: png_uint_32(PNG_FORMAT_RGB), channels: 3)
    }

    private static func encode(
        pixels: [UInt8], width: Int, height: Int,
        format: png_uint_32, channels: Int
    ) throws(FormatError) -> [UInt8] {
        guard width > 0, height > 0, pixels.count == width * height * channels else {
            throw FormatError(.png, "pixel buffer does not match \(width)x\(height)x\(channels)")
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = format
        defer { png_image_free(&image) }
        let stride = png_int_32(width * channels)
        var size: png_alloc_size_t = 0
        // First call measures, second call writes into a buffer of that size.
        let measured = pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, stride, nil)
        }
        guard measured != 0, size > 0 else { throw FormatError(.png, "libpng could not encode the image") }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, raw.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw FormatError(.png, "libpng could not encode the image") }
        return Array(output.prefix(Int(size)))
    }
}
