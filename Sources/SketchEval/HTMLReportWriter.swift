import Foundation
import SketchFormats
import SketchReports

/// Renders an ``EvalReport`` as one self-contained HTML page (report.html): no external files,
/// plots as inline SVG, sketch thumbnails as inline SVG polylines or PNG data URIs.
public enum HTMLReportWriter {
    /// Thumbnails (HTML fragments from ``SketchThumbnail``) by key_id, for the primary shards and,
    /// in agreement mode, for the comparison shards.
    public struct Thumbnails: Sendable {
        /// Primary shards' thumbnails by key.
        public var primary: [String: String]
        /// Comparison shards' thumbnails by key.
        public var comparison: [String: String]

        /// Creates the two maps.
        public init(primary: [String: String] = [:], comparison: [String: String] = [:]) {
            self.primary = primary
            self.comparison = comparison
        }
    }

    /// The HTML page of `report`.
    public static func render(_ report: EvalReport, thumbnails: Thumbnails = Thumbnails()) -> String {
        let m = report.metrics
        var body = """
            <h1>Evaluation: \(escape(report.model))</h1>
            <table class="summary">
            <tr><th>shards</th><td>\(report.shards.map { "<code>\(escape($0))</code>" }.joined(separator: " + ")) (split <code>\(escape(report.split))</code>)</td></tr>
            <tr><th>model input</th><td><code>\(escape(report.modelInput))</code></td></tr>
            <tr><th>examples</th><td>\(m.examples) (skipped, class not in model: \(report.skippedUnknownClass))</td></tr>
            <tr><th>top-1 accuracy</th><td><b>\(percent(m.top1Accuracy))</b></td></tr>
            <tr><th>top-3 accuracy</th><td>\(percent(m.top3Accuracy))</td></tr>
            <tr><th>balanced accuracy</th><td>\(percent(m.balancedAccuracy))</td></tr>
            <tr><th>ONNX Runtime</th><td>\(escape(report.onnxRuntime)), batch \(report.batchSize), \(String(format: "%.2f", report.inferenceSeconds)) s</td></tr>
            </table>
            <h2>Precision and recall per class</h2>
            \(precisionRecallChart(m.perClass))
            <h2>Confusion matrix</h2>
            <p>Rows: actual class; columns: predicted class; darker = more examples (row-normalised).</p>
            \(confusionMatrix(m))
            <h2>Most confused pairs</h2>
            \(confusedPairsTable(m.mostConfused))
            <h2>Misclassified (\(report.misclassifiedTotal); first \(report.misclassified.count) shown)</h2>
            <div class="grid">
            """
        for example in report.misclassified {
            body += figure(
                thumbnails.primary[example.key],
                caption: "\(escape(example.actual)) → <b>\(escape(example.predicted))</b> \(String(format: "%.2f", example.probability))",
                key: example.key)
        }
        body += "</div>\n"
        if let agreement = report.agreement {
            let a = agreement.metrics
            body += """
                <h2>Agreement with <code>\(escape(agreement.compareShards))</code></h2>
                <p>Same top-1 class on <b>\(a.agreeing) of \(a.matched)</b> drawings matched by key_id:
                <b>\(percent(a.agreementRate))</b> (unmatched: \(a.onlyInPrimary) only here, \(a.onlyInComparison) only there).</p>
                <div class="grid">
                """
            for d in a.disagreements {
                body +=
                    "<figure class=\"pair\">\(thumbnails.primary[d.key] ?? "")\(thumbnails.comparison[d.key] ?? "")"
                    + "<figcaption>\(escape(d.primary)) \(String(format: "%.2f", d.primaryProbability)) vs "
                    + "\(escape(d.comparison)) \(String(format: "%.2f", d.comparisonProbability))<br><small>\(escape(d.key))</small></figcaption></figure>\n"
            }
            body += "</div>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">\(HTMLText.contentSecurityPolicy)<title>SketchPrep evaluation: \(escape(report.model))</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
            table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}
            .grid{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0;width:110px;text-align:center;font-size:11px}
            figure.pair{width:210px}figure svg,figure img{border:1px solid #ccc}small{color:#777;word-break:break-all}
            svg text{font-size:10px;font-family:system-ui,sans-serif}
            </style></head><body>
            \(body)</body></html>

            """
    }

    private static func figure(_ thumbnail: String?, caption: String, key: String) -> String {
        "<figure>\(thumbnail ?? "")<figcaption>\(caption)<br><small>\(escape(key))</small></figcaption></figure>\n"
    }

    /// Horizontal bars: precision (blue) and recall (orange) per class, 0–100 %, each bar followed
    /// by its own figure in its colour.
    static func precisionRecallChart(_ classes: [ClassificationMetrics.ClassScore]) -> String {
        let label = 130
        let width = 300
        let row = 20
        let height = classes.count * row + 20
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(label + width + 70)\" height=\"\(height)\">"
        svg +=
            "<text x=\"\(label)\" y=\"10\" fill=\"#1f77b4\">precision</text><text x=\"\(label + 70)\" y=\"10\" fill=\"#ff7f0e\">recall</text>"
        for (i, score) in classes.enumerated() {
            let y = 16 + i * row
            let precision = Int(((score.precision ?? 0) * Double(width)).rounded())
            let recall = Int(((score.recall ?? 0) * Double(width)).rounded())
            svg += "<text x=\"\(label - 4)\" y=\"\(y + 13)\" text-anchor=\"end\">\(escape(score.word))</text>"
            svg += "<rect x=\"\(label)\" y=\"\(y + 2)\" width=\"\(precision)\" height=\"7\" fill=\"#1f77b4\"/>"
            svg += "<rect x=\"\(label)\" y=\"\(y + 10)\" width=\"\(recall)\" height=\"7\" fill=\"#ff7f0e\"/>"
            svg += "<text x=\"\(label + precision + 4)\" y=\"\(y + 9)\" font-size=\"9\" fill=\"#1f77b4\">\(percent(score.precision))</text>"
            svg += "<text x=\"\(label + recall + 4)\" y=\"\(y + 17)\" font-size=\"9\" fill=\"#ff7f0e\">\(percent(score.recall))</text>"
        }
        return svg + "</svg>"
    }

    /// A heat map of the row-normalised confusion matrix with counts in the cells when they fit.
    static func confusionMatrix(_ metrics: ClassificationMetrics) -> String {
        let n = metrics.confusion.count
        let cell = n <= 12 ? 28 : (n <= 40 ? 14 : 6)
        let label = 130
        let size = label + n * cell
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size + 10)\" height=\"\(size + 10)\">"
        for (i, score) in metrics.perClass.enumerated() {
            let position = label + i * cell + cell / 2 + 3
            svg += "<text x=\"\(label - 4)\" y=\"\(position)\" text-anchor=\"end\">\(escape(score.word))</text>"
            svg += "<text transform=\"translate(\(position - 3),\(label - 4)) rotate(-90)\">\(escape(score.word))</text>"
        }
        for (actual, row) in metrics.confusion.enumerated() {
            let total = max(row.reduce(0, +), 1)
            for (predicted, count) in row.enumerated() {
                let share = Double(count) / Double(total)
                let shade = Int((255 * (1 - share)).rounded())
                let colour = actual == predicted ? "rgb(\(shade),\(shade + (255 - shade) / 2),\(shade))" : "rgb(255,\(shade),\(shade))"
                let x = label + predicted * cell
                let y = label + actual * cell
                svg +=
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" fill=\"\(count == 0 ? "#fafafa" : colour)\" stroke=\"#eee\">"
                svg +=
                    "<title>\(escape(metrics.perClass[actual].word)) → \(escape(metrics.perClass[predicted].word)): \(count)</title></rect>"
                if cell >= 28, count > 0 {
                    svg += "<text x=\"\(x + cell / 2)\" y=\"\(y + cell / 2 + 3)\" text-anchor=\"middle\">\(count)</text>"
                }
            }
        }
        return svg + "</svg>"
    }

    private static func confusedPairsTable(_ pairs: [ClassificationMetrics.ConfusedPair]) -> String {
        guard !pairs.isEmpty else { return "<p>None.</p>" }
        return "<table><tr><th>actual</th><th>predicted as</th><th>count</th></tr>"
            + pairs.map { "<tr><td>\(escape($0.actual))</td><td>\(escape($0.predicted))</td><td>\($0.count)</td></tr>" }.joined()
            + "</table>"
    }

    static func percent(_ value: Double?) -> String { MarkdownReportWriter.percent(value) }

    /// Escaped for HTML and SVG (``HTMLText``).
    static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
