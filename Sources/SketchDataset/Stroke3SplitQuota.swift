import SketchFormats

/// How many drawings of one class go to each split of a sketch-rnn `.npz`, and which.
///
/// The drawings of a class are ranked by `FNV1a64(UTF-8 key_id)` (the hash of the one split rule,
/// `DatasetSplit`; ties by key_id bytes); the first `train` of that order go to train, the next
/// `valid` to valid, the next `test` to test, the rest are not selected. A class with fewer
/// drawings than `train + valid + test` keeps the sizes' ratio (Magenta's 70,000 / 2,500 / 2,500
/// is 28 : 1 : 1): `valid = n·valid/total`, `test = n·test/total` (rounded down), `train` the rest.
/// Whatever else is in the run, a drawing's place depends only on its class's keys.
public struct Stroke3SplitQuota: Sendable, Equatable {
    /// Drawings per class in train.
    public var train: Int
    /// Drawings per class in valid.
    public var valid: Int
    /// Drawings per class in test.
    public var test: Int

    /// Creates sizes; each must be ≥ 0 and their sum > 0.
    public init(train: Int = 70_000, valid: Int = 2_500, test: Int = 2_500) throws {
        guard train >= 0, valid >= 0, test >= 0, train + valid + test > 0 else {
            throw DatasetError("stroke-3 split sizes must be ≥ 0 and not all 0, got \(train)/\(valid)/\(test)")
        }
        self.train = train
        self.valid = valid
        self.test = test
    }

    /// The counts for a class of `count` drawings.
    public func counts(forClassOf count: Int) -> (train: Int, valid: Int, test: Int) {
        let total = train + valid + test
        guard count < total else { return (train, valid, test) }
        let valid = count * self.valid / total
        let test = count * self.test / total
        return (count - valid - test, valid, test)
    }

    /// The indices into `keyIDs` (one class) for train, valid and test, each in hash-rank order.
    public func assign(keyIDs: [String]) -> (train: [Int], valid: [Int], test: [Int]) {
        let ranked = keyIDs.indices.map { (FNV1a64.hash(keyIDs[$0]), $0) }.sorted { a, b in
            a.0 != b.0 ? a.0 < b.0 : keyIDs[a.1].utf8.lexicographicallyPrecedes(keyIDs[b.1].utf8)
        }.map(\.1)
        let (trainCount, validCount, testCount) = counts(forClassOf: keyIDs.count)
        return (Array(ranked[0..<trainCount]), Array(ranked[trainCount..<(trainCount + validCount)]),
                Array(ranked[(trainCount + validCount)..<(trainCount + validCount + testCount)]))
    }
}
