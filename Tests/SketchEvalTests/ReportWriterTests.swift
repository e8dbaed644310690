import Testing

@testable import SketchEval

@Suite("Report writers")
struct ReportWriterTests {
    static let classes = ["cat", "<dog>"]

    static func report(agreement: EvalReport.Agreement? = nil) -> EvalReport {
        let predictions = [
            RankedPrediction(key: "k1", label: 0, classes: [0, 1], probabilities: [0.8, 0.2]),
            RankedPrediction(key: "k2", label: 0, classes: [1, 0], probabilities: [0.6, 0.4]),
            RankedPrediction(key: "k3", label: 1, classes: [1, 0], probabilities: [0.7, 0.3]),
            RankedPrediction(key: "k4", label: -1, classes: [1, 0], probabilities: [0.7, 0.3]),
        ]
        return EvalReport(
            model: "Models/m", modelInput: "image [?, 1, 28, 28]", shards: ["out/s"], split: "test",
            onnxRuntime: "1.31.1", threads: 0, batchSize: 256,
            predictions: Evaluator.SplitPredictions(predictions: predictions), classNames: classes,
            inferenceSeconds: 0.5, agreement: agreement)
    }

    @Test func reportCountsOnlyExamplesOfKnownClassesAndListsTheMisclassified() {
        let report = Self.report()
        #expect(report.metrics.examples == 3)
        #expect(report.skippedUnknownClass == 1)
        #expect(report.misclassifiedTotal == 1)
        #expect(report.misclassified == [.init(key: "k2", actual: "cat", predicted: "<dog>", probability: 0.6, top3: ["<dog>", "cat"])])
    }

    @Test func markdownShowsAccuracyPerClassRowsAndMisclassifiedKeys() {
        let markdown = MarkdownReportWriter.render(Self.report())
        #expect(markdown.contains("| top-1 accuracy | **66.7 %** |"))
        #expect(markdown.contains("| top-3 accuracy | 100.0 % |"))
        #expect(markdown.contains("| cat | 2 | 1 | 100.0 % | 50.0 % |"))
        #expect(markdown.contains("| k2 | cat | &#60;dog&#62; (0.60) | &#60;dog&#62;, cat |"))
    }

    @Test func markdownHasAnAgreementSectionInAgreementMode() {
        let agreement = AgreementMetrics(
            primary: [RankedPrediction(key: "k1", label: 0, classes: [0], probabilities: [0.8])],
            comparison: [RankedPrediction(key: "k1", label: 0, classes: [1], probabilities: [0.6])], classNames: Self.classes)
        let markdown = MarkdownReportWriter.render(Self.report(agreement: .init(compareShards: "out/r", split: "all", metrics: agreement)))
        #expect(markdown.contains("Same top-1 class on **0 of 1** drawings matched by key_id: **0.0 %**"))
        #expect(markdown.contains("| k1 | cat (0.80) | &#60;dog&#62; (0.60) |"))
    }

    @Test func htmlIsSelfContainedWithInlinePlotsThumbnailsAndEscapedNames() {
        let html = HTMLReportWriter.render(Self.report(), thumbnails: .init(primary: ["k2": "<svg id=\"thumb-k2\"></svg>"]))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"))
        #expect(html.contains("&lt;dog&gt;"))
        #expect(!html.contains("<dog>"))
        #expect(html.contains("<svg id=\"thumb-k2\"></svg>"))
        #expect(html.components(separatedBy: "<svg xmlns").count - 1 == 2)  // precision/recall chart + confusion matrix
    }

    @Test func eachPrecisionRecallBarPairShowsBothFiguresInTheirColours() {
        let chart = HTMLReportWriter.precisionRecallChart(Self.report().metrics.perClass)
        let blue = chart.components(separatedBy: "fill=\"#1f77b4\">").dropFirst().map { $0.prefix { $0 != "<" } }
        let orange = chart.components(separatedBy: "fill=\"#ff7f0e\">").dropFirst().map { $0.prefix { $0 != "<" } }
        // The legend, then cat (precision 1/1, recall 1/2) and <dog> (precision 1/2, recall 1/1).
        #expect(blue == ["precision", "100.0 %", "50.0 %"])
        #expect(orange == ["recall", "50.0 %", "100.0 %"])
    }
}
