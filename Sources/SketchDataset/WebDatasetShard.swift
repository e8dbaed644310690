import Foundation
import SketchCore
import SketchFormats

/// One WebDataset shard: a tar (`TarArchive`) whose samples are, per example in dataset order,
/// `<key>.npy` (the payload as a `.npy`; for uint8 rasters with `imagesAsPNG`, `<key>.png`, a
/// gray or RGB PNG, `PNGEncoder.encode(raster:)`), `<key>.cls` (the label index as decimal text) and `<key>.json` (`word`, the original
/// `key_id`, `countrycode`, `recognized`, `timestamp`), the key being `WebDatasetKey.of(key_id)`.
/// `webdataset.WebDataset(path).decode()` gives each sample's array (or image), label and fields.
package enum WebDatasetShard {
    /// The tar bytes of `examples`.
    package static func encode(_ examples: ArraySlice<DatasetExample>, imagesAsPNG: Bool) throws -> [UInt8] {
        var members: [(name: String, contents: [UInt8])] = []
        members.reserveCapacity(3 * examples.count)
        for example in examples {
            let key = WebDatasetKey.of(example.keyID)
            if imagesAsPNG, let png = try PNGEncoder.encode(raster: example.payload) {
                members.append(("\(key).png", png))
            } else {
                members.append(("\(key).npy", npy(example.payload)))
            }
            members.append(("\(key).cls", Array(String(example.label).utf8)))
            members.append(("\(key).json", json(example)))
        }
        return try TarArchive.encode(members)
    }

    private static func npy(_ payload: TensorPayload) -> [UInt8] {
        switch payload {
        case let .float32(values, shape): return NPYWriter.encode(values, dtype: .float32, shape: shape)
        case let .float64(values, shape): return NPYWriter.encode(values, dtype: .float64, shape: shape)
        case let .uint8(values, shape): return NPYWriter.encode(values, dtype: .uint8, shape: shape)
        }
    }

    /// `{"word":…,"key_id":…,"countrycode":…,"recognized":…,"timestamp":…}` (keys in this order).
    private static func json(_ example: DatasetExample) -> [UInt8] {
        var bytes = Array(#"{"word":"#.utf8)
        SimplifiedNDJSONWriter.appendString(example.word, to: &bytes)
        bytes += Array(#","key_id":"#.utf8)
        SimplifiedNDJSONWriter.appendString(example.keyID, to: &bytes)
        bytes += Array(#","countrycode":"#.utf8)
        SimplifiedNDJSONWriter.appendString(example.facts.countryCode, to: &bytes)
        bytes += Array((example.facts.recognized ? #","recognized":true,"timestamp":"# : #","recognized":false,"timestamp":"#).utf8)
        SimplifiedNDJSONWriter.appendString(example.facts.timestamp, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
