/// The member key of a WebDataset sample, from its key_id: `A–Z a–z 0–9 _ -` are kept and every
/// other byte of the key_id's UTF-8 is written `~XX` (two upper-case hex digits; `~` itself is
/// `~7E`). The key thus holds no `.` (WebDataset cuts a member name at the first dot of its base
/// name into key and extension) and no `/`, and different key_ids give different keys (every
/// `~` starts an escape, so the escaping reads back one way): `5201136883597312` stays as it is,
/// `airplane/1.svg` becomes `airplane~2F1~2Esvg`.
package enum WebDatasetKey {
    /// The member key of `keyID`.
    package static func of(_ keyID: String) -> String {
        var key: [UInt8] = []
        key.reserveCapacity(keyID.utf8.count)
        append(keyID.utf8, to: &key)
        return String(decoding: key, as: UTF8.self)
    }

    /// Appends the member key of the key_id whose UTF-8 bytes are `keyID` to `key`.
    package static func append(_ keyID: some Sequence<UInt8>, to key: inout [UInt8]) {
        for byte in keyID {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                key.append(byte)
            default:
                key.append(UInt8(ascii: "~"))
                key.append(hex[Int(byte >> 4)])
                key.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    private static let hex = Array("0123456789ABCDEF".utf8)
}
