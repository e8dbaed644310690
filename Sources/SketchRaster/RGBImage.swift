/// An 8-bit RGB raster, row-major, 3 bytes per pixel (R, G, B), no row padding.
public struct RGBImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// Wraps existing pixels. `pixels.count` must be `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage pixel count does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The (r, g, b) triple at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let base = (y * width + x) * 3
        return (pixels[base], pixels[base + 1], pixels[base + 2])
    }
}

/// An opaque colour with components in 0...1.
public struct RGBColor: Equatable, Sendable {
    /// Red, green, blue in 0...1.
    public var red, green, blue: Double

    /// Creates a colour from 0...1 components.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Pure white.
    public static let white = RGBColor(red: 1, green: 1, blue: 1)
    /// Pure black.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// Dark gray, for labels.
    public static let labelGray = RGBColor(red: 0.25, green: 0.25, blue: 0.25)
}
