import SketchCore

extension TFExample {
    /// A gray raster as a `tf.train.Example` in TensorFlow's image conventions (as written by the
    /// TF-Slim/object-detection dataset tools): `image/encoded` (one PNG, 8-bit gray),
    /// `image/format` (`png`), `image/height`, `image/width`, `image/class/label` (int64).
    public static func pngImage(pixels: [UInt8], height: Int, width: Int, label: Int32) throws(FormatError) -> TFExample {
        let png = try PNGEncoder.encode(GrayImage(width: width, height: height, pixels: pixels))
        return TFExample(features: [
            "image/encoded": .bytes([png]),
            "image/format": .bytes([Array("png".utf8)]),
            "image/height": .int64s([Int64(height)]),
            "image/width": .int64s([Int64(width)]),
            "image/class/label": .int64s([Int64(label)]),
        ])
    }
}
