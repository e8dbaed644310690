/// Accuracy figures of a classifier over a labelled set: top-1/top-3 accuracy, per-class
/// precision and recall, the confusion matrix and the most confused class pairs.
public struct ClassificationMetrics: Sendable, Equatable, Codable {
    /// Precision/recall of one class.
    public struct ClassScore: Sendable, Equatable, Codable {
        /// The class word.
        public let word: String
        /// Examples whose true class this is.
        public let support: Int
        /// Examples predicted (top-1) as this class.
        public let predicted: Int
        /// Examples of this class predicted as this class.
        public let correct: Int
        /// correct / predicted; nil when the class was never predicted.
        public let precision: Double?
        /// correct / support; nil when the set has no example of the class.
        public let recall: Double?
    }

    /// A (true class, predicted class) pair off the diagonal of the confusion matrix.
    public struct ConfusedPair: Sendable, Equatable, Codable {
        /// The true class word.
        public let actual: String
        /// The class the model chose instead.
        public let predicted: String
        /// How many examples of `actual` were predicted as `predicted`.
        public let count: Int
    }

    /// Number of examples.
    public let examples: Int
    /// Share of examples whose top-1 class is the true one.
    public let top1Accuracy: Double
    /// Share of examples whose true class is among the top 3.
    public let top3Accuracy: Double
    /// Mean recall over the classes that have examples (accuracy if classes were balanced).
    public let balancedAccuracy: Double
    /// One entry per class, in class index order.
    public let perClass: [ClassScore]
    /// `confusion[actual][predicted]` counts.
    public let confusion: [[Int]]
    /// The largest off-diagonal confusion counts, largest first (ties by class index).
    public let mostConfused: [ConfusedPair]

    /// Computes the metrics of `predictions` for a model whose classes are `classNames`.
    /// Labels or predicted classes outside `classNames` are ignored in per-class figures but count
    /// as wrong in the accuracies.
    public init(predictions: [RankedPrediction], classNames: [String], confusedPairLimit: Int = 10) {
        let n = classNames.count
        var confusion = Array(repeating: Array(repeating: 0, count: n), count: n)
        var top1 = 0
        var top3 = 0
        for prediction in predictions {
            if prediction.isCorrect(within: 1) { top1 += 1 }
            if prediction.isCorrect(within: 3) { top3 += 1 }
            if (0..<n).contains(prediction.label), (0..<n).contains(prediction.predicted) {
                confusion[prediction.label][prediction.predicted] += 1
            }
        }
        let perClass = (0..<n).map { c -> ClassScore in
            let support = confusion[c].reduce(0, +)
            let predicted = confusion.reduce(0) { $0 + $1[c] }
            let correct = confusion[c][c]
            return ClassScore(
                word: classNames[c], support: support, predicted: predicted, correct: correct,
                precision: predicted > 0 ? Double(correct) / Double(predicted) : nil,
                recall: support > 0 ? Double(correct) / Double(support) : nil)
        }
        var pairs: [ConfusedPair] = []
        for actual in 0..<n {
            for predicted in 0..<n where predicted != actual && confusion[actual][predicted] > 0 {
                pairs.append(
                    ConfusedPair(
                        actual: classNames[actual], predicted: classNames[predicted],
                        count: confusion[actual][predicted]))
            }
        }
        let recalls = perClass.compactMap(\.recall)
        let total = Double(max(predictions.count, 1))
        self.examples = predictions.count
        self.top1Accuracy = Double(top1) / total
        self.top3Accuracy = Double(top3) / total
        self.balancedAccuracy = recalls.isEmpty ? 0 : recalls.reduce(0, +) / Double(recalls.count)
        self.perClass = perClass
        self.confusion = confusion
        // A stable sort keeps the row-major (actual, predicted) order among equal counts.
        self.mostConfused = Array(
            pairs.enumerated().sorted {
                $0.element.count != $1.element.count
                    ? $0.element.count > $1.element.count : $0.offset < $1.offset
            }.map(\.element).prefix(confusedPairLimit))
    }
}
