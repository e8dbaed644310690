/// Repeated key_ids seen on one side of a join: how many repeats, and the first few ids.
///
/// The join keeps the first record of each key_id and skips later ones; this tally is what the
/// report says about the skipped ones (docs/parity.md).
package struct DuplicateKeys: Equatable, Sendable, Encodable {
    /// Records skipped because their key_id was already seen.
    package private(set) var count = 0
    /// The first `exampleLimit` repeated key_ids, in reading order (each once).
    package private(set) var examples: [String] = []
    /// How many repeated key_ids `examples` keeps.
    package static let exampleLimit = 10

    package init() {}

    /// Counts one skipped repeat of `keyID`.
    package mutating func add(_ keyID: String) {
        count += 1
        if examples.count < Self.exampleLimit && !examples.contains(keyID) { examples.append(keyID) }
    }

    enum CodingKeys: String, CodingKey {
        case count, examples
    }
}
