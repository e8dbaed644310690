import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// Small helpers for the files a command writes.
enum OutputPaths {
    /// Where a summary line says the output went: `output`, or that nothing was written there when
    /// the run wrote no record (`RecordCounts.commitsOutput`: what was there stays).
    static func destination(_ output: String, _ tally: RecordCounts) -> String {
        tally.commitsOutput ? output : "nothing written to \(output)"
    }

    /// Prints a command's summary line: on stdout, or on stderr when the output itself goes to
    /// standard output.
    static func printSummary(_ line: String, output: String) {
        if OutputTarget.writesStandardOutput(output) { printToStandardError(line) } else { print(line) }
    }
}
