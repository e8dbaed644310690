import ArgumentParser
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// `sketchprep verify`: checks a dataset directory against its manifest.json.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a dataset directory against its manifest.json (shard SHA-256s and counts).",
        discussion: """
            Re-hashes every shard file the manifest lists (size and SHA-256), reports shard files it does \
            not list and any other file that is neither named by it nor one of SketchPrep's own \
            (classes.txt, timings.json, quarantine.ndjson, …) as a stray, and checks the counts (files of one shard agree, shards add up to each split's total, \
            per-class counts add up, splits add up to records.written, read = written + filtered + \
            rejected). Exits 1 when anything is missing, extra or different, so a dataset copied between \
            machines can be trusted before training.

            Examples:
              sketchprep verify out/rnn
              sketchprep verify out/rnn --report-json verify.json
            """)

    @Argument(help: "Dataset directory (the output of preprocess or import-bitmaps).")
    var directory: String

    @OptionGroup var report: ReportJSONOption

    func run() throws {
        var paths = OutputPathCheck()
        paths.inputs([directory], option: "directory")
        report.register(in: &paths)
        try paths.verify()
        let result = try DatasetVerifier.verify(directory: directory, manifestName: DatasetLayout.manifest)
        try report.write(result, timings: nil)
        for problem in result.problems {
            printToStandardError("verify: \(directory)/\(problem.file): \(problem.kind): \(problem.detail)")
        }
        if let limit = result.recordLimit {
            print(
                "verify: \(directory): built with --limit \(limit): only the first \(limit) record(s) of each input, a trial and not the whole input"
            )
        }
        if result.ok {
            print(
                "verify: \(directory): \(result.matchingFiles) of \(result.listedFiles) files match manifest.json;"
                    + " counts reconcile (\(result.examples) examples)")
        } else {
            print(
                "verify: \(directory): \(result.problems.count) problem(s); \(result.matchingFiles) of"
                    + " \(result.listedFiles) files match \(DatasetLayout.manifest)")
            throw ExitCode.failure
        }
    }
}
