import ArgumentParser
import SketchDataset
import SketchIO

/// `sketchprep info`: what a dataset directory holds, from its manifest.json.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what a dataset directory holds: classes, counts per split and class, settings, inputs, sizes.",
        discussion: """
            Reads DIR/manifest.json of any dataset SketchPrep writes (NPY, TFRecord, WebDataset, sketch-rnn \
            stroke-3 .npz, import-bitmaps) and prints its kind, the sketchprep version that wrote it, the \
            pipeline and every setting, the record reconciliation, the examples per split and per class, \
            the files' sizes, and the inputs with their sizes and SHA-256s. --report-json writes the same \
            as JSON (what the Python package's sketchprep.info(DIR) returns). It reads only the manifest; \
            `sketchprep verify DIR` checks the files against it.

            Examples:
              sketchprep info out/quickdraw-rnn
              sketchprep info out/quickdraw-rnn --report-json info.json
            """)

    @Argument(help: "Dataset directory (the output of preprocess, merge or import-bitmaps).")
    var directory: String

    @OptionGroup var report: ReportJSONOption

    func run() throws {
        var paths = OutputPathCheck()
        paths.inputs([directory], option: "directory")
        report.register(in: &paths)
        try paths.verify()
        let info = try DatasetInfo.read(directory: directory)
        try report.write(info, timings: nil)
        if !OutputTarget.writesStandardOutput(report.path ?? "") {
            print(info.lines().joined(separator: "\n"))
        }
    }
}
