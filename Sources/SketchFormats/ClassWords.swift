/// A set of class words compared by their UTF-8 bytes, not by Swift's canonical equivalence
/// (under which `"café"` in NFC and in NFD are one string): two words that differ only by
/// normalization stay two, so ``DataName/separateCollisions(_:caseInsensitive:)`` can see them.
package struct ClassWords: Sendable, Equatable {
    private var bytes: Set<[UInt8]> = []

    /// An empty set.
    package init() {}

    /// A set holding `words`.
    package init<Words: Sequence>(_ words: Words) where Words.Element == String {
        for word in words { insert(word) }
    }

    /// Adds `word`.
    package mutating func insert(_ word: String) {
        bytes.insert(Array(word.utf8))
    }

    /// Adds every word of `other`.
    package mutating func formUnion(_ other: ClassWords) {
        bytes.formUnion(other.bytes)
    }

    /// The number of distinct words.
    package var count: Int { bytes.count }

    /// The words in byte-wise order (the class-list order of every dataset).
    package var sorted: [String] {
        bytes.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
