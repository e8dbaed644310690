import SketchDataset
import SketchFormats
import SketchIO

/// The files a data command writes (its output, the keys file beside an `.npy`, its quarantine,
/// its `--report-json` report) and the one check, before anything is read or written, that they
/// clash with nothing (``OutputPathCheck``): what `encode`, `bitmap`, `raster`, `simplify` and
/// `convert` each did by hand.
package enum CommandOutputs {
    /// Checks the paths of a command writing the file `output` (what it is: `kind`) from
    /// `inputs`, with `quarantine` (`--quarantine`, else ``DatasetLayout/quarantine(_:beside:of:)``)
    /// and `report` (`--report-json`); returns the quarantine's path (nil: none, the output is a
    /// stream). An `.npy` output's keys file (`OUT.keys.csv`) is checked with it.
    package static func checkFile(
        inputs: [String], output: String, of kind: DatasetLayout.CommandOutput, quarantine: String?, report: String?
    ) throws(IOError) -> String? {
        let quarantinePath = DatasetLayout.quarantine(quarantine, beside: output, of: kind)
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputFile(output, option: "--output")
        if kind != .drawingLines { paths.outputFile(KeysCSVWriter.path(beside: output), option: "--output's keys file") }
        paths.outputFile(quarantinePath, option: "--quarantine")
        paths.outputFile(report, option: "--report-json")
        try paths.verify()
        return quarantinePath
    }

    /// Checks the paths of a command writing files into the directory `output` (`convert`);
    /// returns the quarantine's path (``DatasetLayout/quarantine(_:besideDirectory:)``).
    package static func checkDirectory(inputs: [String], output: String, quarantine: String?, report: String?) throws(IOError) -> String {
        let quarantinePath = DatasetLayout.quarantine(quarantine, besideDirectory: output)
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.outputDirectory(output, option: "--output")
        paths.outputFile(quarantinePath, option: "--quarantine")
        paths.outputFile(report, option: "--report-json")
        try paths.verify()
        return quarantinePath
    }
}
