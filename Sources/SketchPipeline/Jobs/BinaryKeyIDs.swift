import SketchDataset

/// The key_ids of one `.bin` file that `convert --to bin` writes: Google's layout stores a uint64,
/// so a record whose key_id is a decimal that fits one keeps it, and any other key_id (stroke-3's
/// `<file>#<split>#<index>`, an SVG's `<class>/<file>`) gets a stable uint64 derived from it:
/// FNV-1a 64 of its UTF-8 bytes with the top bit set (``derived(from:)``), which Google's key_ids
/// (below 2⁶³) never have. The file's `<word>.keys.csv` maps each derived key_id back to the
/// original. Two records whose key_ids differ but would share one uint64 in the file (two derived
/// ones, or a derived one and a kept one with the top bit set) collide: the later one is refused.
/// Holds the derived key_ids of one file (and its kept ones with the top bit set), one class at a time.
struct BinaryKeyIDs {
    /// What a key_id becomes in the file.
    enum Assignment: Equatable {
        /// The key_id is a decimal uint64 and is kept.
        case kept(UInt64)
        /// The key_id is not one; `value` is derived from it.
        case derived(UInt64)
        /// The derived (or kept) value is already another key_id's in this file.
        case collision(reason: String)
    }

    private var originals: [UInt64: String] = [:]

    /// The uint64 derived from a key_id that is not one: FNV-1a 64 of its UTF-8 bytes, top bit set.
    static func derived(from keyID: String) -> UInt64 { FNV1a64.hash(keyID) | 1 << 63 }

    /// The value `keyID` has in a `.bin` whatever the other records: kept or derived.
    static func value(of keyID: String) -> UInt64 { UInt64(keyID) ?? derived(from: keyID) }

    /// What `keyID`, the next record's, becomes in this file; the same key_id again gets the same
    /// value (a duplicate, kept as every writer keeps them).
    mutating func assign(_ keyID: String) -> Assignment {
        let kept = UInt64(keyID)
        let value = kept ?? Self.derived(from: keyID)
        if kept == nil || value >= 1 << 63 {
            if let earlier = originals[value], earlier != keyID {
                return .collision(
                    reason: "key_id \(keyID) would share the .bin key_id \(value) with the earlier key_id \(earlier) of this file")
            }
            originals[value] = keyID
        }
        return kept.map(Assignment.kept) ?? .derived(value)
    }
}
