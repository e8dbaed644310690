/// Everything `sketchprep eval` measured, as written to report.json (and rendered to report.md/.html).
public struct EvalReport: Sendable, Codable {
    /// A wrongly classified example.
    public struct Misclassified: Sendable, Codable, Equatable {
        /// Its key_id.
        public let key: String
        /// True class word.
        public let actual: String
        /// Predicted (top-1) class word.
        public let predicted: String
        /// Probability of the predicted class.
        public let probability: Float
        /// The top-3 class words.
        public let top3: [String]
    }

    /// The agreement section, present with `--compare-shards`.
    public struct Agreement: Sendable, Codable {
        /// The comparison shard directory.
        public let compareShards: String
        /// Its split.
        public let split: String
        /// The measured agreement.
        public let metrics: AgreementMetrics
    }

    /// Model directory.
    public let model: String
    /// Model input name and declared shape, e.g. "strokeSeq [?, 75, 3]".
    public let modelInput: String
    /// Evaluated shard directories (joined by key_id, first wins).
    public let shards: [String]
    /// Evaluated split.
    public let split: String
    /// ONNX Runtime version used.
    public let onnxRuntime: String
    /// Intra-op threads (0 = ONNX Runtime's default).
    public let threads: Int
    /// Examples per inference call.
    public let batchSize: Int
    /// Examples in the split whose class the model does not know (not in the metrics).
    public let skippedUnknownClass: Int
    /// Wall-clock seconds of inference over the split.
    public let inferenceSeconds: Double
    /// Accuracy figures over the examples with known classes.
    public let metrics: ClassificationMetrics
    /// Total wrongly classified examples.
    public let misclassifiedTotal: Int
    /// The first wrongly classified examples (shard order), up to the report's limit.
    public let misclassified: [Misclassified]
    /// Prediction agreement with a second preprocessing, when requested.
    public let agreement: Agreement?

    /// Builds the report from labelled predictions; keeps the first `misclassifiedLimit` errors.
    public init(
        model: String, modelInput: String, shards: [String], split: String, onnxRuntime: String, threads: Int,
        batchSize: Int, predictions: Evaluator.SplitPredictions, classNames: [String], inferenceSeconds: Double,
        misclassifiedLimit: Int = 48, agreement: Agreement? = nil
    ) {
        let labelled = predictions.labelled
        let wrong = labelled.filter { !$0.isCorrect(within: 1) }
        self.model = model
        self.modelInput = modelInput
        self.shards = shards
        self.split = split
        self.onnxRuntime = onnxRuntime
        self.threads = threads
        self.batchSize = batchSize
        self.skippedUnknownClass = predictions.unknownClassCount
        self.inferenceSeconds = inferenceSeconds
        self.metrics = ClassificationMetrics(predictions: labelled, classNames: classNames)
        self.misclassifiedTotal = wrong.count
        self.misclassified = wrong.prefix(misclassifiedLimit).map { prediction in
            Misclassified(
                key: prediction.key, actual: classNames[prediction.label], predicted: classNames[prediction.predicted],
                probability: prediction.probabilities[0], top3: prediction.classes.prefix(3).map { classNames[$0] })
        }
        self.agreement = agreement
    }
}
