import ArgumentParser
import SketchDataset
import SketchFormats
import SketchPipeline

/// `sketchprep preprocess`: runs a declarative pipeline file into a sharded dataset directory.
struct PreprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preprocess",
        abstract: "Run a pipeline (Pipelines/*.yaml): read, filter, simplify raw drawings, encode, split, write shards.",
        discussion: """
            Writes into the output directory: the shards ({split}-NNNNN-of-NNNNN.x.npy/.y.npy/.keys.txt, \
            .tfrecord, or .tar for WebDataset, e.g. Pipelines/quickdraw-bitmap28-webdataset.yaml; output.layout: tensorflow-tutorial names them training.tfrecord-NNNNN-of-NNNNN and \
            eval.tfrecord-…), manifest.json (configuration, sources with SHA-256, class map, counts, shard \
            SHA-256s, record reconciliation), classes.txt, quarantine.ndjson (rejected input lines, \
            verbatim) and timings.json (wall-clock figures; the only file that differs between runs). \
            Memory is bounded: encoded examples are spilled as sorted runs under --tmp-dir. The bytes \
            do not depend on --jobs or on partitioning: `--partition i/n` runs the map side of 1/n of the \
            input chunks anywhere, and `sketchprep merge` writes exactly the one-process output. \
            A re-run with unchanged inputs and configuration verifies the shards and does nothing else; \
            otherwise shards that already hold the right bytes are left untouched. A rebuild is made in a \
            staging directory beside the output and swapped in only when complete, under a lock that a \
            second run into the same output is refused by; a rerun after a kill reuses the input chunks \
            the killed run finished (docs/errors.md). Schema: docs/pipelines.md.

            Examples:
              sketchprep preprocess --pipeline quickdraw-rnn --input raw/ -o out/rnn
              sketchprep preprocess --pipeline Pipelines/quickdraw-bitmap28-webdataset.yaml --input raw/ -o out/wds
              sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input raw/ --categories-file categories.txt -o out/rnn
              sketchprep preprocess --from out/rnn -o out/rnn-again
              sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input raw/ --partition 3/8 -o work/part-3
              sketchprep merge work/part-0 work/part-1 … work/part-7 -o out/rnn
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Pipeline file (YAML), e.g. Pipelines/quickdraw-rnn.yaml, or the name of a shipped pipeline.",
            discussion: Self.shippedPipelines,
            valueName: "file-or-name"))
    var pipeline: String?

    /// The `--pipeline` help's list of the shipped pipelines' names (none when none are found).
    private static var shippedPipelines: String {
        let names = ShippedPipelines.ofThisProcess.names
        return names.isEmpty ? "" : "Shipped pipelines: \(names.joined(separator: ", "))."
    }

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp(
            "Run again the pipeline, settings and inputs recorded in DIR/manifest.json, into --output (default DIR); exit 1 naming an input whose size or SHA-256 changed.",
            valueName: "dir"))
    var from: String?

    @Option(
        name: .customLong("category"), help: "Keep only this category (repeatable; replaces filters.categories and fixes the class order).")
    var categories: [String] = []

    @Option(
        name: .customLong("categories-file"),
        help: ArgumentHelp(
            "Keep only the categories listed in FILE, one a line, in class order (blank lines and # comments skipped); like --category, which it cannot be combined with.",
            valueName: "file"))
    var categoriesFile: String?

    @Option(name: .customLong("input"), help: "Input file or directory (repeatable; replaces source.inputs).")
    var inputs: [String] = []

    @Option(
        name: .customLong("format"),
        help:
            "Input file format: ndjson, bin, stroke3, csv or svg (replaces source.file_format; default: each file by its content, see docs/formats.md)."
    )
    var fileFormat: DrawingFileFormat?

    @Option(help: "Word of records whose input carries none, e.g. a .bin on stdin (replaces source.word).")
    var word: String?

    @Option(name: [.short, .long], help: "Output directory (replaces output.directory); with --partition, the partial's directory.")
    var output: String?

    @OptionGroup var jobs: JobsOption

    @OptionGroup var limit: LimitOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run only the map side on partition i of n (0-based, e.g. $SLURM_ARRAY_TASK_ID/64) into --output; join the n partials with `sketchprep merge`.",
            valueName: "i/n"))
    var partition: String?

    @Option(name: .customLong("tmp-dir"), help: "Where sorted runs are spilled (default: the output directory's parent).")
    var temporaryDirectory: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record input paths in manifest.json, partial.json and quarantine.ndjson relative to this directory (default: as given), so runs that see the inputs under different mount points write the same bytes.",
            valueName: "dir"))
    var root: String?

    @Flag(
        name: .long,
        help:
            "Re-read and re-encode even when manifest.json says the output is up to date, and replace a dataset of another pipeline in the output directory."
    )
    var force = false

    @OptionGroup var quiet: QuietOption

    @OptionGroup var strictness: StrictOption

    func validate() throws {
        if let partition {
            do { _ = try Partition(parsing: partition) } catch { throw ValidationError("\(error)") }
            if limit.limit != nil {
                throw ValidationError("--limit is for trying a pipeline in one process; it cannot be combined with --partition")
            }
        }
        if from != nil {
            let given = [
                ("--pipeline", pipeline != nil), ("--input", !inputs.isEmpty), ("--category", !categories.isEmpty),
                ("--categories-file", categoriesFile != nil), ("--format", fileFormat != nil), ("--word", word != nil),
                ("--limit", limit.limit != nil), ("--partition", partition != nil), ("--root", root != nil),
            ].filter(\.1).map(\.0)
            if !given.isEmpty {
                throw ValidationError(
                    "--from takes the pipeline, settings and inputs from the manifest; it cannot be combined with \(given.joined(separator: ", "))"
                )
            }
        } else if pipeline == nil {
            throw ValidationError(
                "give --pipeline FILE or NAME (e.g. Pipelines/quickdraw-rnn.yaml or quickdraw-rnn), or --from DIR to run a dataset's recorded pipeline again"
            )
        }
        if categoriesFile != nil && !categories.isEmpty {
            throw ValidationError("--categories-file and --category cannot be combined: list every category in the file")
        }
        if let repeated = categories.firstRepeated {
            throw ValidationError("--category \(repeated) is given twice (each category is one class)")
        }
    }

    func run() throws {
        let settings = PipelineRequest.RunSettings(
            jobs: jobs.resolved, temporaryDirectory: temporaryDirectory, showProgress: quiet.showsProgress, force: force)
        let outcome: PipelineOutcome
        if let from {
            let rerun = try PipelineRequest.recordedRun(directory: from, output: output, settings: settings)
            printWarnings(rerun.inputs.warnings, tool: rerun.runner.config.name)
            outcome = try rerun.run()
        } else {
            guard let pipeline else { throw ValidationError("give --pipeline FILE or --from DIR") }
            var replacements = PipelineRequest.Replacements()
            replacements.categories = categories
            replacements.categoriesFile = categoriesFile
            replacements.inputs = inputs
            replacements.fileFormat = fileFormat
            replacements.word = word
            replacements.output = output
            let runner = try PipelineRequest.runner(
                pipelineFile: pipeline, replacements: replacements, partition: try partition.map(Partition.init(parsing:)),
                recordLimit: limit.limit, recordedPaths: RecordedPaths(root: root), settings: settings)
            let found = try runner.findInputs()
            printWarnings(found.warnings, tool: runner.config.name)
            outcome = try runner.run(found)
        }
        print(outcome.summary)
        try strictness.check(
            outcome.manifest.records, command: "preprocess", rejectedByReason: outcome.rejectedByReason,
            mayWriteNothing: outcome.partitionChunks != nil)
    }
}
