import ArgumentParser
import SketchDataset
import SketchPipeline

/// `sketchprep merge`: the reduce side of a partitioned `preprocess`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the partial outputs of `preprocess --partition i/n` into the dataset.",
        discussion: """
            Writes exactly the bytes a single `sketchprep preprocess` of the same inputs and pipeline \
            writes (shards, manifest.json, classes.txt, quarantine.ndjson). Refuses missing, duplicate \
            or overlapping partitions and partials made from other inputs, settings or another \
            sketchprep/library build, naming them. Running it again gives the same output.

            The reduce side runs as R independent parts, each writing its own share of the shards: \
            without flags, `--jobs` parts in this process; with `--reduce i/R`, only part i (e.g. one \
            task of a scheduler's array), after which `--finalize` writes manifest.json, classes.txt and \
            quarantine.ndjson from the parts' reports. The bytes are the same for every R.

            Examples:
              sketchprep merge work/part-0 work/part-1 work/part-2 -o out/rnn
              sketchprep merge work/part-* -o out/rnn        # order does not matter
              sketchprep merge work/part-* -o out/rnn --reduce 0/4    # … 3/4, anywhere
              sketchprep merge work/part-* -o out/rnn --finalize      # after all 4 parts
            """)

    @Argument(help: "The partial output directories (one per partition, any order).")
    var partials: [String]

    @Option(name: [.short, .long], help: "Dataset directory to write.")
    var output: String

    @OptionGroup var jobs: JobsOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run only part i of R of the reduce side (0-based, e.g. $SLURM_ARRAY_TASK_ID/8); then run --finalize.", valueName: "i/R"))
    var reduce: String?

    @Flag(name: .long, help: "Write manifest.json, classes.txt and quarantine.ndjson from the reports of every --reduce i/R part.")
    var finalize = false

    @OptionGroup var quiet: QuietOption

    func validate() throws {
        if reduce != nil && finalize {
            throw ValidationError("--reduce i/R and --finalize are separate steps; run every part, then --finalize")
        }
        if let reduce {
            do { _ = try ReducePart(parsing: reduce) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        let step: PartialRun.Step
        if let reduce {
            step = .part(try ReducePart(parsing: reduce))
        } else {
            step = finalize ? .finalize : .all(parts: jobs.resolved)
        }
        switch try PartialRun.merge(partials, into: output, step: step, showProgress: quiet.showsProgress) {
        case .dataset(let outcome):
            print(outcome.summary)
            if let failure = outcome.manifest.records.failure(strict: false) {
                printToStandardError("merge: \(failure)")
                throw ExitCode.failure
            }
        case .part(let report):
            print(
                "reduce part \(report.part)/\(report.parts): wrote \(report.written) examples in \(report.files.count) file(s) into \(output)/"
                    + " (\(report.recordsRead) records read); when every part is done: sketchprep merge PARTIAL_DIR… -o \(output) --finalize"
            )
        }
    }
}
