import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchReports

/// One `sketchprep eval` run: predict a split with a bundled model, optionally a second
/// preprocessing of the same drawings, and write report.json, report.md and report.html.
public struct EvaluationJob: Sendable {
    /// Model directory (model.onnx + classes.txt).
    public var modelDirectory: String
    /// Shard directories to evaluate, joined by key_id: a drawing already read from an earlier
    /// directory is skipped in later ones (e.g. official simplified first, then SketchPrep's
    /// simplification of raw drawings that have no official counterpart).
    public var shards: [String]
    /// Split to evaluate.
    public var split: String
    /// Where the reports go (created if needed).
    public var reportDirectory: String
    /// A second shard directory with the same drawings (agreement mode), or nil.
    public var compareShards: String?
    /// Split of the comparison shards.
    public var compareSplit: String
    /// Examples per inference call.
    public var batchSize: Int
    /// ONNX Runtime intra-op threads (0 = its default).
    public var threads: Int
    /// The ONNX Runtime shared library as given (`--ort-library`); nil or empty: the one
    /// ``OnnxRuntimeLibraryLocator`` finds when the job runs.
    public var libraryPath: String?
    /// How many misclassified examples the report lists and shows.
    public var misclassifiedLimit: Int

    /// Creates a job; see the properties.
    public init(
        modelDirectory: String, shards: [String], split: String, reportDirectory: String, compareShards: String?,
        compareSplit: String, batchSize: Int, threads: Int, libraryPath: String?, misclassifiedLimit: Int
    ) {
        self.modelDirectory = modelDirectory
        self.shards = shards
        self.split = split
        self.reportDirectory = reportDirectory
        self.compareShards = compareShards
        self.compareSplit = compareSplit
        self.batchSize = batchSize
        self.threads = threads
        self.libraryPath = libraryPath
        self.misclassifiedLimit = misclassifiedLimit
    }

    /// The split to evaluate: `requested`, else `val` when every shard directory has it, else
    /// `test` (``ShardSplitReader/defaultSplit(of:)``), else `val`; with a notice for the user when
    /// the split was chosen and is not `val`.
    public static func split(requested: String?, shards: [String]) -> (split: String, notice: String?) {
        if let requested { return (requested, nil) }
        let split = ShardSplitReader.defaultSplit(of: shards) ?? "val"
        guard split != "val" else { return (split, nil) }
        return (split, "no val split in \(shards.joined(separator: ", ")); evaluating the \(split) split (--split chooses)")
    }

    /// Checks, before anything is read or written and before the ONNX Runtime library is looked
    /// for, that the report directory clashes with none of the inputs (the model, the shards and the
    /// comparison shards).
    public func checkPaths() throws {
        var paths = OutputPathCheck()
        paths.inputs([modelDirectory], option: "--model")
        paths.inputs(shards, option: "--shards")
        paths.inputs(compareShards.map { [$0] } ?? [], option: "--compare-shards")
        paths.outputDirectory(reportDirectory, option: "--report")
        try paths.verify()
    }

    /// Runs the job (first finding the ONNX Runtime library), reporting progress lines through
    /// `progress`, and returns the written report.
    @discardableResult
    public func run(progress: (String) -> Void) throws -> EvalReport {
        let library = try OnnxRuntimeLibraryLocator.resolve(explicit: libraryPath)
        let bundle = try ModelBundle(directory: modelDirectory)
        let runtime = try OnnxRuntime(libraryPath: library)
        let session = try InferenceSession(runtime: runtime, modelPath: bundle.modelPath, threads: threads)
        let evaluator = try Evaluator(session: session, classNames: bundle.classNames)
        let readers = try shards.map { try ShardSplitReader(directory: $0, split: split) }
        var datasetClasses: [String] = []
        for reader in readers { datasetClasses += reader.classNames.filter { !datasetClasses.contains($0) } }
        try Evaluator.requireCommonClasses(
            model: bundle.classNames, dataset: datasetClasses, datasetName: "the dataset \(shards.joined(separator: ", "))")
        let comparisonReader = try compareShards.map { try ShardSplitReader(directory: $0, split: compareSplit) }

        let started = MonotonicClock.now()
        var seen = Set<String>()
        var joined: [RankedPrediction] = []
        for reader in readers {
            let part = try predict(evaluator, reader, label: reader.directory, progress: progress)
            joined += part.predictions.filter { seen.insert($0.key).inserted }
        }
        let predictions = Evaluator.SplitPredictions(predictions: joined)
        let seconds = MonotonicClock.seconds(since: started)
        var agreement: EvalReport.Agreement?
        var comparisonInputs: [String: [Float]] = [:]
        var thumbnailKeys: Set<String> = []
        if let comparisonReader {
            let comparison = try predict(evaluator, comparisonReader, label: comparisonReader.directory, progress: progress)
            let metrics = AgreementMetrics(
                primary: predictions.predictions, comparison: comparison.predictions,
                classNames: bundle.classNames)
            agreement = EvalReport.Agreement(compareShards: comparisonReader.directory, split: compareSplit, metrics: metrics)
            let disagreeing = Set(metrics.disagreements.prefix(misclassifiedLimit).map(\.key))
            comparisonInputs = try Evaluator.inputs(forKeys: disagreeing, in: comparisonReader)
            thumbnailKeys.formUnion(disagreeing)
        }
        let report = EvalReport(
            model: modelDirectory, modelInput: "\(evaluator.input.name) \(evaluator.input.shapeText)", shards: shards,
            split: split, onnxRuntime: runtime.version, threads: threads, batchSize: batchSize, predictions: predictions,
            classNames: bundle.classNames, inferenceSeconds: seconds, misclassifiedLimit: misclassifiedLimit, agreement: agreement)
        thumbnailKeys.formUnion(report.misclassified.map(\.key))
        var primaryInputs: [String: [Float]] = [:]
        for reader in readers {
            let missing = thumbnailKeys.subtracting(primaryInputs.keys)
            primaryInputs.merge(try Evaluator.inputs(forKeys: missing, in: reader)) { first, _ in first }
        }
        let thumbnails = HTMLReportWriter.Thumbnails(
            primary: primaryInputs.mapValues { SketchThumbnail.html(input: $0[...], shape: evaluator.exampleShape) },
            comparison: comparisonInputs.mapValues { SketchThumbnail.html(input: $0[...], shape: evaluator.exampleShape) })
        try write(report, thumbnails: thumbnails)
        return report
    }

    private func predict(
        _ evaluator: Evaluator, _ reader: ShardSplitReader, label: String,
        progress: (String) -> Void
    ) throws -> Evaluator.SplitPredictions {
        let started = MonotonicClock.now()
        let result = try evaluator.predict(reader, batchSize: batchSize) { done, shard, shards in
            let rate = Double(done) / max(MonotonicClock.seconds(since: started), 1e-6)
            progress("eval: \(label) [\(split)] shard \(shard)/\(shards), \(done) examples, \(Int(rate)) examples/s")
        }
        return result
    }

    private func write(_ report: EvalReport, thumbnails: HTMLReportWriter.Thumbnails) throws {
        try createDirectories(reportDirectory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(report)
        func path(_ name: String) -> String { (reportDirectory as NSString).appendingPathComponent(name) }
        let names = DatasetLayout.evaluationReports
        try writeAtomically(Array(json) + [0x0A], to: path(names.json))
        try writeAtomically(MarkdownReportWriter.render(report), to: path(names.markdown))
        try writeAtomically(HTMLReportWriter.render(report, thumbnails: thumbnails), to: path(names.html))
    }
}
