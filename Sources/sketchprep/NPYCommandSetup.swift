import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// The start of every command that turns drawing inputs into one `.npy` (`encode`, `bitmap`):
/// the path check and quarantine path (``CommandOutputs/checkFile(inputs:output:of:quarantine:report:)``),
/// the reader with `--limit`, skipped-source warnings, and the output directories.
enum NPYCommandSetup {
    static func prepare(
        inputs: [String], format: DrawingInputOptionGroup, output: String, quarantine: String?,
        report: ReportJSONOption, limit: Int?,
        tool: String
    ) throws -> (reader: DrawingSource, quarantinePath: String?) {
        let quarantinePath = try CommandOutputs.checkFile(
            inputs: inputs, output: output, of: .drawingArray, quarantine: quarantine, report: report.path)
        var reader = try format.source(inputs)
        reader.recordLimitPerInput = limit
        printWarnings(reader.skippedSources, tool: tool)
        try OutputTarget.createParentDirectory(of: output)
        try OutputTarget.createParentDirectory(of: quarantinePath)
        return (reader, quarantinePath)
    }
}
