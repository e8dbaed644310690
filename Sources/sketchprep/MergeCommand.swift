import ArgumentParser
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

        Examples:
          sketchprep merge work/part-0 work/part-1 work/part-2 -o out/rnn
          sketchprep merge work/part-* -o out/rnn        # order does not matter
        """)

    @Argument(help: "The partial output directories (one per partition, any order).")
    var partials: [String]

    @Option(name: [.short, .long], help: "Dataset directory to write.")
    var output: String

    @OptionGroup var quiet: QuietOption

    func run() throws {
        let outcome = try PartialRun.merge(partials, into: output, showProgress: quiet.showsProgress)
        print(PreprocessCommand.summary(outcome))
    }
}
