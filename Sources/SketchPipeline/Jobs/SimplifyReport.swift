import SketchCore
import SketchDataset
import SketchFormats

/// The `--report-json` document of `simplify`: counts and settings only, so it is the same for
/// every run and job count (the wall-clock time goes to `RunTimings`). `copied` counts the written
/// drawings that were already simplified and were copied through unchanged.
package struct SimplifyReport: Encodable {
    var inputs: [String]
    var output: String
    var quarantine: String?
    var read: Int
    var written: Int
    var copied: Int
    var rejected: Int
    var sourceErrors: Int
    var reconciled: Bool
    var rejectedByReason: [String: Int]
    var inputBytes: Int
    var outputBytes: Int
    var options: [String: String]

    package init(result: SimplifyResult, inputs: [String], output: String, quarantine: String?, options: SimplificationOptions) {
        self.inputs = inputs
        self.output = output
        self.quarantine = quarantine
        read = result.tally.read
        written = result.tally.written
        copied = result.copied
        rejected = result.tally.rejected
        sourceErrors = result.tally.sourceErrors
        reconciled = result.tally.isReconciled
        rejectedByReason = result.rejectedByReason
        inputBytes = result.inputBytes
        outputBytes = result.outputBytes
        self.options = options.reportFields
    }

    enum CodingKeys: String, CodingKey {
        case inputs, output, quarantine, read, written, copied, rejected, reconciled, options
        case rejectedByReason = "rejected_by_reason"
        case sourceErrors = "source_errors"
        case inputBytes = "input_bytes"
        case outputBytes = "output_bytes"
    }
}

extension SimplificationOptions {
    /// The options and the rule's fixed formulas as a flat JSON-friendly description for reports.
    package var reportFields: [String: String] {
        SimplificationOptions.fixedFormulas.merging([
            "scale_target": "\(scaleTarget)", "resample_step": "\(resampleStep)", "epsilon": "\(epsilon)",
        ]) { _, knob in knob }
    }
}
