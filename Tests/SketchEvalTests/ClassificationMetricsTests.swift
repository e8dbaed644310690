import Testing

@testable import SketchEval

@Suite("Classification metrics")
struct ClassificationMetricsTests {
    static let classes = ["cat", "dog", "fish", "bird"]

    static func prediction(_ key: String, _ label: Int, _ ranked: [Int]) -> RankedPrediction {
        RankedPrediction(key: key, label: label, classes: ranked, probabilities: ranked.map { _ in 0.25 })
    }

    // cat→cat, cat→dog (dog, cat, fish), dog→dog, fish→dog (dog, bird, cat), fish→fish
    static let predictions = [
        prediction("a", 0, [0, 1, 2]), prediction("b", 0, [1, 0, 2]), prediction("c", 1, [1, 0, 2]),
        prediction("d", 2, [1, 3, 0]), prediction("e", 2, [2, 1, 0]),
    ]

    @Test func top1AndTop3AccuracyCountTheTrueClassAmongTheBest() {
        let metrics = ClassificationMetrics(predictions: Self.predictions, classNames: Self.classes)
        #expect(metrics.examples == 5)
        #expect(metrics.top1Accuracy == 3.0 / 5.0)
        #expect(metrics.top3Accuracy == 4.0 / 5.0)
    }

    @Test func confusionMatrixIsIndexedActualThenPredicted() {
        let metrics = ClassificationMetrics(predictions: Self.predictions, classNames: Self.classes)
        #expect(metrics.confusion == [[1, 1, 0, 0], [0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]])
    }

    @Test func precisionAndRecallPerClassAreNilWithoutPredictionsOrSupport() {
        let metrics = ClassificationMetrics(predictions: Self.predictions, classNames: Self.classes)
        let dog = metrics.perClass[1]
        #expect(dog.support == 1 && dog.predicted == 3 && dog.correct == 1)
        #expect(dog.precision == 1.0 / 3.0)
        #expect(dog.recall == 1.0)
        #expect(metrics.perClass[0].recall == 0.5)
        #expect(metrics.perClass[3].precision == nil)
        #expect(metrics.perClass[3].recall == nil)
        #expect(metrics.balancedAccuracy == (0.5 + 1.0 + 0.5) / 3)
    }

    @Test func mostConfusedPairsAreOffDiagonalLargestFirst() {
        let extra = Self.predictions + [Self.prediction("f", 2, [1, 0, 2])]
        let metrics = ClassificationMetrics(predictions: extra, classNames: Self.classes)
        #expect(
            metrics.mostConfused == [
                .init(actual: "fish", predicted: "dog", count: 2),
                .init(actual: "cat", predicted: "dog", count: 1),
            ])
    }

    @Test func rankingKeepsTheBestKWithTiesToTheLowerIndex() {
        let ranked = RankedPrediction(key: "k", label: 2, scores: [0.1, 0.4, 0.4, 0.05, 0.05][...], k: 3)
        #expect(ranked.classes == [1, 2, 0])
        #expect(ranked.probabilities == [0.4, 0.4, 0.1])
        #expect(ranked.isCorrect(within: 3))
        #expect(!ranked.isCorrect(within: 1))
    }

    @Test func rankingAnOffsetRowUsesClassIndicesFromZero() {
        let scores: [Float] = [9, 9, 9, 0.2, 0.7, 0.1]
        let ranked = RankedPrediction(key: "k", label: 1, scores: scores[3..<6], k: 1)
        #expect(ranked.classes == [1])
    }
}

@Suite("Agreement metrics")
struct AgreementMetricsTests {
    static func prediction(_ key: String, _ predicted: Int) -> RankedPrediction {
        RankedPrediction(key: key, label: -1, classes: [predicted], probabilities: [0.9])
    }

    @Test func joinsByKeyAndCountsAgreementOverMatchedDrawingsOnly() {
        let primary = [Self.prediction("a", 0), Self.prediction("b", 1), Self.prediction("c", 1), Self.prediction("x", 0)]
        let comparison = [Self.prediction("c", 0), Self.prediction("a", 0), Self.prediction("b", 1), Self.prediction("y", 1)]
        let agreement = AgreementMetrics(primary: primary, comparison: comparison, classNames: ["cat", "dog"])
        #expect(agreement.matched == 3)
        #expect(agreement.agreeing == 2)
        #expect(agreement.agreementRate == 2.0 / 3.0)
        #expect(agreement.onlyInPrimary == 1)
        #expect(agreement.onlyInComparison == 1)
        #expect(
            agreement.disagreements == [
                .init(
                    key: "c", primary: "dog", primaryProbability: 0.9,
                    comparison: "cat", comparisonProbability: 0.9)
            ])
    }

    @Test func nothingMatchedIsZeroAgreementNotAPerfectScore() {
        let agreement = AgreementMetrics(
            primary: [Self.prediction("a", 0)], comparison: [Self.prediction("b", 0)],
            classNames: ["cat"])
        #expect(agreement.matched == 0)
        #expect(agreement.agreementRate == 0)
    }
}
