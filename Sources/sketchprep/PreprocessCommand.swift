import ArgumentParser
import Foundation
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
              sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input raw/ -o out/rnn
              sketchprep preprocess --pipeline Pipelines/quickdraw-bitmap28-webdataset.yaml --input raw/ -o out/wds
              sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input raw/ --categories-file categories.txt -o out/rnn
              sketchprep preprocess --from out/rnn -o out/rnn-again
              sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml --input raw/ --partition 3/8 -o work/part-3
              sketchprep merge work/part-0 work/part-1 … work/part-7 -o out/rnn
            """)

    @Option(name: .long, help: "Pipeline file (YAML), e.g. Pipelines/quickdraw-rnn.yaml.")
    var pipeline: String?

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
                "give --pipeline FILE (e.g. Pipelines/quickdraw-rnn.yaml), or --from DIR to run a dataset's recorded pipeline again")
        }
        if categoriesFile != nil && !categories.isEmpty {
            throw ValidationError("--categories-file and --category cannot be combined: list every category in the file")
        }
        if let repeated = categories.firstRepeated {
            throw ValidationError("--category \(repeated) is given twice (each category is one class)")
        }
    }

    func run() throws {
        if let from { return try rerun(from) }
        guard let pipeline else { throw ValidationError("give --pipeline FILE or --from DIR") }
        // Configuration errors name file, line and key; they are not usage errors, so no usage text.
        var config = try PipelineConfig.load(path: pipeline)
        if !categories.isEmpty { config.filters.categories = categories }
        if let categoriesFile { config.filters.categories = try CategoriesFile.read(categoriesFile) }
        if !inputs.isEmpty { config.source.inputs = inputs }
        if let fileFormat { config.source.fileFormat = fileFormat }
        if let word { config.source.word = word }
        if let output { config.output.directory = output }

        var runner = PipelineRunner(config: config, pipelineFile: pipeline, showProgress: quiet.showsProgress, force: force)
        runner.jobs = jobs.resolved
        runner.partition = try partition.map(Partition.init(parsing:))
        runner.temporaryDirectory = temporaryDirectory
        runner.recordedPaths = RecordedPaths(root: root)
        runner.recordLimit = limit.limit
        runner.overrides = PipelineOverrides(inputs: !inputs.isEmpty, output: output != nil)
        printWarnings(try runner.inputWarnings(), tool: config.name)
        let outcome = try runner.run()
        print(Self.summary(outcome))
        try strictness.check(
            outcome.manifest.records, command: "preprocess", rejectedByReason: outcome.rejectedByReason,
            mayWriteNothing: outcome.partitionChunks != nil)
    }

    /// `--from DIR`: the run recorded in DIR's manifest, again, once its inputs are found unchanged.
    private func rerun(_ directory: String) throws {
        let recorded = try RecordedRun.read(directory: directory)
        var config = recorded.config
        config.output.directory = output ?? directory
        var runner = PipelineRunner(config: config, pipelineFile: recorded.pipelineFile, showProgress: quiet.showsProgress, force: force)
        runner.jobs = jobs.resolved
        runner.temporaryDirectory = temporaryDirectory
        runner.recordLimit = recorded.recordLimit
        runner.overrides = PipelineOverrides(output: output != nil, recordedIn: directory)
        try runner.checkInputsExist()
        try recorded.checkInputs(runner.currentSources())
        let outcome = try runner.run()
        print(Self.summary(outcome))
        try strictness.check(outcome.manifest.records, command: "preprocess")
    }

    /// Where the shards are, counts per split, reconciliation.
    static func summary(_ outcome: PipelineOutcome) -> String {
        let m = outcome.manifest
        if let chunks = outcome.partitionChunks {
            let r = m.records
            return """
                \(m.pipeline.name): partial output in \(outcome.directory)/ (\(chunks.read) of \(chunks.of) input chunks)
                  read \(r.read) = mapped \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)
                  join all partitions with: sketchprep merge PARTIAL_DIR… -o DATASET_DIR
                """
        }
        var lines = [
            "\(m.pipeline.name): \(outcome.upToDate ? "up to date (inputs, configuration, settings and shard SHA-256s unchanged)" : "wrote") \(outcome.directory)/"
        ]
        if !outcome.rebuildReasons.isEmpty {
            lines.append("  rebuilt: the dataset that was there differs in \(outcome.rebuildReasons.joined(separator: "; "))")
        }
        if let limit = m.settings?.recordLimit {
            lines.append("  a trial: only the first \(limit) record(s) of each input were read (--limit)")
        }
        // A shard is the files of one stem (NPY: three); a format not named in shards counts files.
        let suffixes = OutputFormat.of(files: m.shards.map(\.file))?.entry.shardSuffixes ?? []
        for split in SplitName.allCases {
            let counts = m.counts[split.rawValue]
            let shards = m.shards.filter { $0.split == split }
            let stems = Set(
                shards.map { shard in
                    suffixes.first { shard.file.hasSuffix($0) }.map { String(shard.file.dropLast($0.count)) } ?? shard.file
                })
            let unit = suffixes.isEmpty && !stems.isEmpty ? "file(s)" : "shard(s)"
            lines.append(
                "  \(split.rawValue): \(counts?.total ?? 0) drawings"
                    + (stems.isEmpty && !m.shards.isEmpty ? "" : " in \(stems.count) \(unit)"))
        }
        let everySplit = m.shards.filter { $0.split == nil }
        if !everySplit.isEmpty {
            lines.append(
                "  \(everySplit.count) file(s) holding every split, one per class (\(everySplit.prefix(3).map(\.file).joined(separator: ", "))\(everySplit.count > 3 ? ", …" : ""))"
            )
        }
        lines.append(
            "  classes: \(m.classes.count) (\(m.classes.prefix(5).map(\.word).joined(separator: ", "))\(m.classes.count > 5 ? ", …" : ""))")
        let r = m.records
        lines.append(
            "  read \(r.read) = written \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)"
                + (r.sourceErrors > 0 ? "; source errors \(r.sourceErrors)" : "")
                + (r.rejected + r.sourceErrors > 0
                    ? " (rejected lines in \(outcome.directory)/\(m.quarantine ?? DatasetLayout.quarantine))" : ""))
        if r.duplicateKeyIDs > 0 {
            lines.append("  \(r.duplicateKeyIDs) written example(s) repeat an earlier key_id (all are kept; check the sources for copies)")
        }
        if outcome.reusedChunks > 0 {
            lines.append("  \(outcome.reusedChunks) input chunk(s) were mapped by an interrupted run and reused (checked by SHA-256)")
        }
        if !outcome.upToDate && outcome.reusedFiles > 0 {
            lines.append("  \(outcome.reusedFiles) shard file(s) were already complete and left untouched")
        }
        lines.append("  manifest: \(outcome.directory)/\(DatasetLayout.manifest)")
        return lines.joined(separator: "\n")
    }
}
