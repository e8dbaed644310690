import ArgumentParser
import SketchDataset
import SketchEval

/// `sketchprep eval`: accuracy report of a bundled ONNX model on SketchPrep shards.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate an ONNX model on SketchPrep shards and write report.json, report.md and report.html.",
        discussion: """
            Reports top-1/top-3 accuracy, per-class precision and recall, the confusion matrix, the most \
            confused pairs and thumbnails of misclassified sketches. With --compare-shards, also runs the model \
            on a second preprocessing of the same drawings (joined by key_id) and reports how often the \
            predictions agree. ONNX Runtime is loaded at run time (see --ort-library).
            """
    )

    @Option(help: "Model directory holding model.onnx and classes.txt.")
    var model: String

    @Option(
        help: ArgumentHelp(
            "Shard directory written by `sketchprep preprocess` (NPY shards + manifest.json); repeatable.",
            discussion: "Several directories are joined by key_id: a drawing already read from an earlier one is skipped."))
    var shards: [String]

    @Option(
        help: ArgumentHelp(
            "Split to evaluate: train, val, test, or all (every shard, e.g. for agreement over every matched drawing).",
            discussion: "Default: val, or test for datasets without a val split (TU-Berlin has train and test)."))
    var split: String?

    @Option(help: "Directory for report.json, report.md and report.html (created if missing).")
    var report: String

    @Option(help: "Second shard directory with the same drawings preprocessed differently (agreement mode).")
    var compareShards: String?

    @Option(help: "Split of --compare-shards (default: the same as --split).")
    var compareSplit: String?

    @Option(help: "Examples per inference call.")
    var batchSize = 256

    @Option(help: "ONNX Runtime intra-op threads (0 = ONNX Runtime's default: one per core).")
    var threads = 0

    @Option(
        help: ArgumentHelp(
            "Path of libonnxruntime.so.",
            discussion:
                "Default: $SKETCHPREP_ORT_LIBRARY, else libonnxruntime.so* next to this binary, else the active Python environment's onnxruntime package (capi/libonnxruntime.so*), else LD_LIBRARY_PATH, /usr/local/lib, /usr/lib/<arch>-linux-gnu, /usr/lib64, /usr/lib."
        ))
    var ortLibrary: String?

    @Option(help: "How many misclassified (and disagreeing) sketches the report lists with thumbnails.")
    var misclassifiedLimit = 48

    func validate() throws {
        guard (1...1_000_000).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 1000000") }
        let splits = ["train", "val", "test", ShardSplitReader.allSplits]
        for (option, value) in [("--split", split), ("--compare-split", compareSplit)] {
            guard let value, !splits.contains(value) else { continue }
            throw ValidationError("\(option) must be one of \(splits.joined(separator: ", ")), got '\(value)'")
        }
        guard threads >= 0 else { throw ValidationError("--threads must be 0 or more") }
        guard misclassifiedLimit >= 0 else { throw ValidationError("--misclassified-limit must be 0 or more") }
    }

    func run() throws {
        let (split, notice) = EvaluationJob.split(requested: self.split, shards: shards)
        let job = EvaluationJob(
            modelDirectory: model, shards: shards, split: split, reportDirectory: report, compareShards: compareShards,
            compareSplit: compareSplit ?? split, batchSize: batchSize, threads: threads, libraryPath: ortLibrary,
            misclassifiedLimit: misclassifiedLimit)
        try job.checkPaths()
        if let notice { printToStandardError("eval: \(notice)") }
        let result = try job.run(progress: printToStandardError)
        printToStandardError(result.summary(reportDirectory: report))
    }
}
