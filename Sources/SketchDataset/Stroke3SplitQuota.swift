import SketchFormats

/// How many drawings of one class go to each split of a sketch-rnn `.npz`, and which: the one
/// split rule of every dataset, with a size per split.
///
/// A drawing's split is `split.split(forKeyID:)` (`DatasetSplit`: a bucket of `FNV1a64(key_id)`;
/// by default ``sketchRNNSplit``, 28 : 1 : 1, the ratio of Magenta's sizes), so it is the split the
/// drawing has in every NPY or TFRecord dataset with the same shares. Within a split, drawings are
/// taken in dataset order (`SortKey.of(keyID:seed:)`, ties by key_id bytes, then input order) up to
/// the split's size; the rest are not selected. A class with fewer drawings than the sizes keeps
/// the shares' ratio, as its key_ids' buckets fall. The pipelines' `encode.kind: stroke3` uses the
/// same rule (``splitCounts``, ``sketchRNNSplit``, the default seed 42), so `convert --to stroke3`
/// and a sketch-rnn pipeline put a drawing in the same split.
package struct Stroke3SplitQuota: Sendable, Equatable {
    /// Drawings per class in train.
    package var train: Int
    /// Drawings per class in valid.
    package var valid: Int
    /// Drawings per class in test.
    package var test: Int
    /// The shares that choose each drawing's split.
    package var split = Self.sketchRNNSplit
    /// The seed of the dataset order within a split.
    package var seed: UInt64 = 42

    /// 28 : 1 : 1 in basis points (9,333 / 333 / 334).
    package static let sketchRNNSplit = try! DatasetSplit(train: 93.33, val: 3.33, test: 3.34)

    /// Creates sizes, by default Magenta's 70,000 / 2,500 / 2,500; each must be ≥ 0 and their sum > 0.
    package init(train: Int = 70_000, valid: Int = 2_500, test: Int = 2_500) throws {
        guard train >= 0, valid >= 0, test >= 0, train + valid + test > 0 else {
            throw DatasetError(.configuration, "stroke-3 split sizes must be ≥ 0 and not all 0, got \(train)/\(valid)/\(test)")
        }
        self.train = train
        self.valid = valid
        self.test = test
    }

    /// The sizes as a pipeline's `split.counts`.
    package var splitCounts: [SplitName: Int] { [.train: train, .val: valid, .test: test] }

    /// The indices into `keyIDs` (one class) for train, valid and test, each in dataset order.
    package func assign(keyIDs: [String]) -> (train: [Int], valid: [Int], test: [Int]) {
        let ordered = keyIDs.indices.map { (SortKey.of(keyID: keyIDs[$0], seed: seed), $0) }.sorted { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if keyIDs[a.1] != keyIDs[b.1] { return keyIDs[a.1].utf8.lexicographicallyPrecedes(keyIDs[b.1].utf8) }
            return a.1 < b.1
        }.map(\.1)
        var members: [SplitName: [Int]] = [:]
        for index in ordered {
            let name = split.split(forKeyID: keyIDs[index])
            if members[name, default: []].count < splitCounts[name]! { members[name, default: []].append(index) }
        }
        return (members[.train] ?? [], members[.val] ?? [], members[.test] ?? [])
    }
}
