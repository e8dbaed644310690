import Foundation
import SketchReports

/// Renders an ``EvalReport`` as Markdown (report.md): summary, per-class table, most confused
/// pairs, misclassified examples and the agreement section.
public enum MarkdownReportWriter {
    /// The Markdown text of `report`.
    public static func render(_ report: EvalReport) -> String {
        let m = report.metrics
        var lines = [
            "# Evaluation: \(MarkdownText.escaped(report.model))", "",
            "| | |", "|---|---|",
            MarkdownTable.row([
                "shards",
                "\(report.shards.joined(separator: " + ")) (split \(report.split)\(report.shards.count > 1 ? ", joined by key_id, first wins" : ""))",
            ]),
            MarkdownTable.row(["model input", report.modelInput]),
            "| examples | \(m.examples) (skipped, class not in model: \(report.skippedUnknownClass)) |",
            "| top-1 accuracy | **\(percent(m.top1Accuracy))** |",
            "| top-3 accuracy | \(percent(m.top3Accuracy)) |",
            "| balanced accuracy (mean recall) | \(percent(m.balancedAccuracy)) |",
            "| ONNX Runtime | \(report.onnxRuntime), \(report.threads == 0 ? "default" : String(report.threads)) threads, batch \(report.batchSize), \(String(format: "%.2f", report.inferenceSeconds)) s |",
            "", "## Per class", "",
        ]
        lines += MarkdownTable.header(["class", "support", "predicted", "precision", "recall"], [.left, .right, .right, .right, .right])
        lines += m.perClass.map {
            MarkdownTable.row([$0.word, String($0.support), String($0.predicted), percent($0.precision), percent($0.recall)])
        }
        lines += ["", "## Most confused pairs", ""]
        lines +=
            m.mostConfused.isEmpty
            ? ["None."]
            : MarkdownTable.header(["actual", "predicted as", "count"], [.left, .left, .right])
                + m.mostConfused.map { MarkdownTable.row([$0.actual, $0.predicted, String($0.count)]) }
        lines += ["", "## Misclassified (\(report.misclassifiedTotal); first \(report.misclassified.count) listed)", ""]
        lines +=
            report.misclassified.isEmpty
            ? ["None."]
            : MarkdownTable.header(["key_id", "actual", "predicted (p)", "top-3"])
                + report.misclassified.map {
                    MarkdownTable.row([
                        $0.key, $0.actual, "\($0.predicted) (\(String(format: "%.2f", $0.probability)))",
                        $0.top3.joined(separator: ", "),
                    ])
                }
        if let agreement = report.agreement {
            let a = agreement.metrics
            lines += [
                "", "## Agreement with \(MarkdownText.escaped(agreement.compareShards)) (split \(MarkdownText.escaped(agreement.split)))",
                "",
                "Same top-1 class on **\(a.agreeing) of \(a.matched)** drawings matched by key_id: **\(percent(a.agreementRate))**"
                    + " (unmatched: \(a.onlyInPrimary) only here, \(a.onlyInComparison) only there).", "",
            ]
            lines +=
                a.disagreements.isEmpty
                ? ["No disagreements."]
                : MarkdownTable.header(["key_id", "here (p)", "there (p)"])
                    + a.disagreements.map {
                        MarkdownTable.row([
                            $0.key, "\($0.primary) (\(String(format: "%.2f", $0.primaryProbability)))",
                            "\($0.comparison) (\(String(format: "%.2f", $0.comparisonProbability)))",
                        ])
                    }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "77.8 %" with one decimal; "–" for nil.
    static func percent(_ value: Double?) -> String {
        guard let value else { return "–" }
        return String(format: "%.1f %%", value * 100)
    }
}
