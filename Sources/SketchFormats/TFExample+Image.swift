import SketchCore

extension TFExample {
    /// A raster (`png`: its PNG bytes, gray or RGB) as a `tf.train.Example` in TensorFlow's image
    /// conventions (as written by the TF-Slim/object-detection dataset tools): `image/encoded`
    /// (the PNG), `image/format` (`png`), `image/height`, `image/width`, `image/class/label` (int64).
    public static func pngImage(png: [UInt8], height: Int, width: Int, label: Int32) -> TFExample {
        TFExample(features: [
            "image/encoded": .bytes([png]),
            "image/format": .bytes([Array("png".utf8)]),
            "image/height": .int64s([Int64(height)]),
            "image/width": .int64s([Int64(width)]),
            "image/class/label": .int64s([Int64(label)]),
        ])
    }
}
