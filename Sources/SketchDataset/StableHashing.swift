import SketchFormats

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a stable, documented
/// hash for split assignment. Unlike Swift's `Hasher`, it is the same in every process.
package enum FNV1a64 {
    /// FNV-1a 64 of `bytes`.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// FNV-1a 64 of the UTF-8 bytes of `text`.
    package static func hash(_ text: String) -> UInt64 { hash(text.utf8) }
}

/// SplitMix64 (Steele, Lea & Flood 2014): the first output of a generator seeded with
/// `FNV1a64(key_id) ^ seed` is the dataset order (``SortKey``):
/// `state += 0x9e3779b97f4a7c15; z = state; z = (z ^ z>>30) * 0xbf58476d1ce4e5b9;
/// z = (z ^ z>>27) * 0x94d049bb133111eb; return z ^ z>>31`.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
