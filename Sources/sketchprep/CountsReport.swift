import SketchDataset

/// The `--report-json` document of `raster`, `stats` and `convert`: what was read and where it
/// went, counts only, so it is the same for every run and `--jobs`.
struct CountsReport: Encodable {
    var command: String
    var inputs: [String]
    var output: String
    var quarantine: String
    var read: Int
    var written: Int
    /// Records a `convert` quota left out (absent for other commands).
    var notSelected: Int?
    var rejected: Int
    var sourceErrors: Int
    var reconciled: Bool

    init(command: String, inputs: [String], output: String, quarantine: String, tally: RunTally) {
        self.init(command: command, inputs: inputs, output: output, quarantine: quarantine, read: tally.read,
                  written: tally.written, notSelected: nil, rejected: tally.rejected, sourceErrors: tally.sourceErrors,
                  reconciled: tally.isReconciled)
    }

    init(command: String, inputs: [String], output: String, quarantine: String, read: Int, written: Int,
         notSelected: Int?, rejected: Int, sourceErrors: Int, reconciled: Bool) {
        (self.command, self.inputs, self.output, self.quarantine) = (command, inputs, output, quarantine)
        (self.read, self.written, self.notSelected) = (read, written, notSelected)
        (self.rejected, self.sourceErrors, self.reconciled) = (rejected, sourceErrors, reconciled)
    }

    enum CodingKeys: String, CodingKey {
        case command, inputs, output, quarantine, read, written, rejected, reconciled
        case notSelected = "not_selected"
        case sourceErrors = "source_errors"
    }
}
