/// One evaluated example: its key, true label and the model's best classes, most probable first.
public struct RankedPrediction: Sendable, Equatable, Codable {
    /// The example's key_id (from the shard's .keys.txt).
    public let key: String
    /// The true class index (from the shard's .y.npy).
    public let label: Int
    /// The `k` most probable class indices, most probable first.
    public let classes: [Int]
    /// Their probabilities, same order.
    public let probabilities: [Float]

    /// Creates a prediction; `classes` and `probabilities` must have the same length.
    public init(key: String, label: Int, classes: [Int], probabilities: [Float]) {
        self.key = key
        self.label = label
        self.classes = classes
        self.probabilities = probabilities
    }

    /// Ranks one row of class scores and keeps the best `k` (ties: lower class index first).
    public init(key: String, label: Int, scores: ArraySlice<Float>, k: Int) {
        let ranked = zip(scores.indices, scores).sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            .prefix(k)
        self.init(
            key: key, label: label, classes: ranked.map { $0.0 - scores.startIndex },
            probabilities: ranked.map(\.1))
    }

    /// The most probable class.
    public var predicted: Int { classes[0] }
    /// Whether the true label is among the best `k` classes.
    public func isCorrect(within k: Int) -> Bool { classes.prefix(k).contains(label) }
}
