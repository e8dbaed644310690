import Foundation

extension EvalReport {
    /// The line `eval` prints: examples, top-1 and top-3 accuracy, examples skipped for a class the
    /// model does not know, agreement with `--compare-shards`, and where the reports are.
    public func summary(reportDirectory: String) -> String {
        var line = String(
            format: "eval: %d examples, top-1 %.2f %%, top-3 %.2f %%", metrics.examples,
            metrics.top1Accuracy * 100, metrics.top3Accuracy * 100)
        if skippedUnknownClass > 0 {
            line += " (\(skippedUnknownClass) more skipped: their class is not in the model's classes.txt)"
        }
        if let agreement = agreement?.metrics {
            line += String(
                format: ", agreement %.2f %% (%d/%d matched)", agreement.agreementRate * 100,
                agreement.agreeing, agreement.matched)
        }
        return line + " → \(reportDirectory)/report.{json,md,html}"
    }
}
