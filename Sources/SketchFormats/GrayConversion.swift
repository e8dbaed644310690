/// RGBA → 8-bit gray, with alpha composited over white, in integer arithmetic.
///
/// The math, pinned by tests against Pillow (16-bit input: see `grayOverWhite(premultipliedRGBA16:into:)`):
/// 1. Compositing over white, per channel: `c' = round((c * a + 255 * (255 - a)) / 255)`.
/// 2. Luma, ITU-R BT.601 weights 0.299 / 0.587 / 0.114 in 16.16 fixed point, rounded:
///    `L = (19595 R + 38470 G + 7471 B + 32768) >> 16` — the formula of Pillow's `convert("L")`.
///    The weights sum to 65536, so a gray pixel (R = G = B) keeps its value exactly.
package enum GrayConversion {
    /// Luma of one opaque RGB pixel.
    @inline(__always)
    package static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (19595 * Int(red) + 38470 * Int(green) + 7471 * Int(blue) + 32768) >> 16)
    }

    /// One channel value composited over a white background with the given alpha.
    @inline(__always)
    package static func overWhite(_ value: UInt8, alpha: UInt8) -> UInt8 {
        let a = Int(alpha)
        return UInt8(truncatingIfNeeded: (Int(value) * a + 255 * (255 - a) + 127) / 255)
    }

    /// Converts `count` RGBA pixels (4 bytes each, non-premultiplied) to `count` gray bytes.
    package static func grayOverWhite(rgba: UnsafeBufferPointer<UInt8>, into gray: UnsafeMutableBufferPointer<UInt8>) {
        precondition(rgba.count >= gray.count * 4, "RGBA buffer shorter than 4 bytes per gray pixel")
        for index in 0..<gray.count {
            let base = index * 4
            let alpha = rgba[base + 3]
            if alpha == 255 {
                gray[index] = luma(red: rgba[base], green: rgba[base + 1], blue: rgba[base + 2])
            } else {
                gray[index] = luma(
                    red: overWhite(rgba[base], alpha: alpha),
                    green: overWhite(rgba[base + 1], alpha: alpha),
                    blue: overWhite(rgba[base + 2], alpha: alpha))
            }
        }
    }

    /// Converts `count` 16-bit RGBA pixels with premultiplied colour (libpng's linear format) to gray:
    /// over white, a premultiplied channel becomes `c + (65535 - a)`; that is reduced to 8 bits as
    /// `round(v * 255 / 65535)`, then `luma` applies.
    package static func grayOverWhite(
        premultipliedRGBA16 rgba: UnsafeBufferPointer<UInt16>,
        into gray: UnsafeMutableBufferPointer<UInt8>
    ) {
        precondition(rgba.count >= gray.count * 4, "RGBA buffer shorter than 4 samples per gray pixel")
        @inline(__always) func eightBit(_ premultiplied: UInt16, _ transparency: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: ((Int(premultiplied) + transparency) * 255 + 32767) / 65535)
        }
        for index in 0..<gray.count {
            let base = index * 4
            let transparency = 65535 - Int(rgba[base + 3])
            gray[index] = luma(
                red: eightBit(rgba[base], transparency),
                green: eightBit(rgba[base + 1], transparency),
                blue: eightBit(rgba[base + 2], transparency))
        }
    }
}
