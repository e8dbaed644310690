import Foundation
import SketchDataset
import SketchIO

/// The `--report-json` document of the data commands without one of their own: what the command
/// read and wrote and whether the counts reconcile. The same bytes for every run of the same
/// inputs and settings, whatever `--jobs`; the wall-clock figures go beside it (``RunTimings``).
package struct RunReport: Encodable {
    var command: String
    var inputs: [String]
    var output: String
    var quarantine: String?
    var read: Int
    var written: Int
    /// Records left out by design (`RecordCounts.filtered`), under the report's published key
    /// `not_selected`.
    var filtered: Int
    var rejected: Int
    var sourceErrors: Int
    var reconciled: Bool

    /// The report of `command`: `counts`, with the inputs, the output and the quarantine.
    package init(command: String, counts: RecordCounts, inputs: [String], output: String, quarantine: String?) {
        self.command = command
        self.inputs = inputs
        self.output = output
        self.quarantine = quarantine
        read = counts.read
        written = counts.written
        filtered = counts.filtered
        rejected = counts.rejected
        sourceErrors = counts.sourceErrors
        reconciled = counts.isReconciled
    }

    enum CodingKeys: String, CodingKey {
        case command, inputs, output, quarantine, read, written, rejected, reconciled
        case filtered = "not_selected"
        case sourceErrors = "source_errors"
    }

    /// Writes `document` (a command's report) to `path` and `timings`, when the command measures
    /// them, to the timings file beside it (``DatasetLayout/timings(beside:)``): pretty,
    /// key-sorted JSON with a final newline, each written atomically, directories created.
    package static func write(_ document: some Encodable, timings: RunTimings?, to path: String) throws {
        try writeJSON(document, to: path)
        if let timings, let timingsPath = RunTimings.path(nextTo: path) { try writeJSON(timings, to: timingsPath) }
    }

    /// Writes `value` as pretty, key-sorted JSON to `path`, atomically.
    package static func writeJSON<Value: Encodable>(_ value: Value, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try OutputTarget.createParentDirectory(of: path)
        var data = try encoder.encode(value)
        data.append(0x0A)
        try writeAtomically(data, to: path)
    }
}
