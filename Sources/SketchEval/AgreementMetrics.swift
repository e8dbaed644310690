/// How often one model predicts the same class for two preprocessings of the same drawings
/// (e.g. Google's official simplified strokes vs SketchPrep's simplification of the raw ones),
/// joined by key_id.
public struct AgreementMetrics: Sendable, Equatable, Codable {
    /// A drawing on which the two preprocessings led to different top-1 classes.
    public struct Disagreement: Sendable, Equatable, Codable {
        /// The key_id both inputs share.
        public let key: String
        /// Predicted class word on the primary shards.
        public let primary: String
        /// Its probability.
        public let primaryProbability: Float
        /// Predicted class word on the comparison shards.
        public let comparison: String
        /// Its probability.
        public let comparisonProbability: Float
    }

    /// Keys present in both prediction sets.
    public let matched: Int
    /// Primary keys without a counterpart.
    public let onlyInPrimary: Int
    /// Comparison keys without a counterpart.
    public let onlyInComparison: Int
    /// Matched keys with the same top-1 class.
    public let agreeing: Int
    /// agreeing / matched; 0 when nothing matched.
    public let agreementRate: Double
    /// Every disagreeing drawing, in primary order.
    public let disagreements: [Disagreement]

    /// Joins `primary` and `comparison` by key (first occurrence of a repeated key wins) and compares
    /// top-1 classes; `classNames` turns indices into words.
    public init(primary: [RankedPrediction], comparison: [RankedPrediction], classNames: [String]) {
        var byKey: [String: RankedPrediction] = [:]
        for prediction in comparison where byKey[prediction.key] == nil { byKey[prediction.key] = prediction }
        var seen = Set<String>()
        var matched = 0
        var agreeing = 0
        var disagreements: [Disagreement] = []
        func word(_ index: Int) -> String { classNames.indices.contains(index) ? classNames[index] : "#\(index)" }
        for prediction in primary where seen.insert(prediction.key).inserted {
            guard let other = byKey[prediction.key] else { continue }
            matched += 1
            if other.predicted == prediction.predicted {
                agreeing += 1
            } else {
                disagreements.append(
                    Disagreement(
                        key: prediction.key, primary: word(prediction.predicted), primaryProbability: prediction.probabilities[0],
                        comparison: word(other.predicted), comparisonProbability: other.probabilities[0]))
            }
        }
        self.matched = matched
        self.onlyInPrimary = seen.count - matched
        self.onlyInComparison = Set(byKey.keys).subtracting(seen).count
        self.agreeing = agreeing
        self.agreementRate = matched > 0 ? Double(agreeing) / Double(matched) : 0
        self.disagreements = disagreements
    }
}
