import SketchDataset
import SketchFormats
import SketchIO

/// The start of every command that turns drawing inputs into one `.npy` (`encode`, `bitmap`):
/// the quarantine path (`OUT.rejected.ndjson` unless given; none when OUT is a stream), the path
/// check (the keys file `OUT.keys.csv` included), the reader with `--limit`, skipped-source
/// warnings, and the output directories.
enum NPYCommandSetup {
    static func prepare(
        inputs: [String], format: DrawingInputOptionGroup, output: String, quarantine: String?,
        report: ReportJSONOption, limit: Int?,
        tool: String
    ) throws -> (reader: DrawingSource, quarantinePath: String?) {
        let quarantinePath = OutputPaths.quarantine(quarantine, beside: output, replacing: ".npy", with: ".rejected.ndjson")
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        paths.outputFile(KeysCSVWriter.path(beside: output), option: "--output's keys file")
        paths.outputFile(quarantinePath, option: "--quarantine")
        report.register(in: &paths)
        try paths.verify()
        var reader = try format.source(inputs)
        reader.recordLimitPerInput = limit
        printWarnings(reader.skippedSources, tool: tool)
        try OutputPaths.createParentDirectory(of: output)
        try OutputPaths.createParentDirectory(of: quarantinePath)
        return (reader, quarantinePath)
    }
}
