import Foundation
import SketchCore
import SketchFormats

/// One WebDataset shard: a tar (`TarArchive`) whose samples are, per example in dataset order,
/// `<key>.npy` (the payload as a `.npy`; for uint8 rasters with `imagesAsPNG`, `<key>.png`, a
/// gray or RGB PNG, `PNGEncoder.encode(raster:)`), `<key>.cls` (the label index as decimal text) and `<key>.json` (`word`, the original
/// `key_id`, `countrycode`, `recognized`, `timestamp`), the key being `WebDatasetKey.of(key_id)`.
/// `webdataset.WebDataset(path).decode()` gives each sample's array (or image), label and fields.
package enum WebDatasetShard {
    /// One sample: its key_id, label and ``ExampleBody`` (WebDataset encoding) bytes and flags.
    package struct Sample {
        package var keyID: String
        package var label: Int32
        package var flags: UInt8
        package var body: [UInt8]

        package init(keyID: String, label: Int32, flags: UInt8, body: [UInt8]) {
            (self.keyID, self.label, self.flags, self.body) = (keyID, label, flags, body)
        }
    }

    /// The tar bytes of `samples`. Throws `DatasetError` for a body that is not a WebDataset body.
    package static func encode(_ samples: [Sample]) throws -> [UInt8] {
        var members: [(name: String, contents: [UInt8])] = []
        members.reserveCapacity(3 * samples.count)
        for sample in samples {
            let key = WebDatasetKey.of(sample.keyID)
            let body = sample.body
            guard body.count >= 4 else { throw DatasetError("\(sample.keyID): not a WebDataset example body") }
            let length = body.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
            guard length <= body.count - 4 else { throw DatasetError("\(sample.keyID): not a WebDataset example body") }
            members.append(("\(key).\(sample.flags & ExampleBody.pngImage != 0 ? "png" : "npy")", Array(body[4..<4 + length])))
            members.append(("\(key).cls", Array(String(sample.label).utf8)))
            members.append(("\(key).json", Array(body[(4 + length)...])))
        }
        return try TarArchive.encode(members)
    }

    /// `{"word":…,"key_id":…,"countrycode":…,"recognized":…,"timestamp":…}` (keys in this order).
    static func json(word: String, keyID: String, facts: RecordFacts) -> [UInt8] {
        var bytes = Array(#"{"word":"#.utf8)
        SimplifiedNDJSONWriter.appendString(word, to: &bytes)
        bytes += Array(#","key_id":"#.utf8)
        SimplifiedNDJSONWriter.appendString(keyID, to: &bytes)
        bytes += Array(#","countrycode":"#.utf8)
        SimplifiedNDJSONWriter.appendString(facts.countryCode, to: &bytes)
        bytes += Array((facts.recognized ? #","recognized":true,"timestamp":"# : #","recognized":false,"timestamp":"#).utf8)
        SimplifiedNDJSONWriter.appendString(facts.timestamp, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
