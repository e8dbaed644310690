/// An 8-bit grayscale raster, row-major, one byte per pixel, no row padding.
///
/// 0 is black and 255 is white. Used for decoded PNGs, resampled images and rendered sketches.
public struct GrayImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` bytes, row after row.
    public var pixels: [UInt8]

    /// Wraps existing pixels. `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height,
            "GrayImage pixel count does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one uniform value.
    public init(width: Int, height: Int, filledWith value: UInt8) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height))
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}
