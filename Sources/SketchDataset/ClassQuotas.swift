/// Per-class caps of a dataset, applied on the reduce side in dataset order (hash rank,
/// ``SortKey``): the first examples of each class that fit are kept and the rest are filtered, so
/// which drawings a capped dataset holds depends on their key_ids only, never on input order.
///
/// An example is kept when its class has fewer than `maxPerClass` kept examples and fewer than
/// `perSplit[split]` kept examples in its split (the split comes from ``DatasetSplit``, the one
/// split rule; the caps never move an example to another split).
package struct ClassQuotas: Sendable, Equatable {
    /// At most this many examples per class over all splits (nil: no cap).
    package var maxPerClass: Int?
    /// At most this many examples per class in a split (absent split: no cap).
    package var perSplit: [SplitName: Int]
    private var kept: [String: Int] = [:]
    private var keptInSplit: [SplitName: [String: Int]] = [:]

    package init(maxPerClass: Int?, perSplit: [SplitName: Int]) {
        self.maxPerClass = maxPerClass
        self.perSplit = perSplit
    }

    /// Whether the next example of class `word` in `split`, in dataset order, is kept; counts it
    /// when it is.
    package mutating func admit(word: String, split: SplitName) -> Bool {
        if let cap = maxPerClass, kept[word, default: 0] >= cap { return false }
        if let cap = perSplit[split], keptInSplit[split, default: [:]][word, default: 0] >= cap { return false }
        kept[word, default: 0] += 1
        keptInSplit[split, default: [:]][word, default: 0] += 1
        return true
    }
}
