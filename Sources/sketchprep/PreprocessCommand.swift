import ArgumentParser
import Foundation
import SketchFormats
import SketchDataset
import SketchPipeline

/// `sketchprep preprocess`: runs a declarative pipeline file into a sharded dataset directory.
struct PreprocessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preprocess",
        abstract: "Run a pipeline (Pipelines/*.yaml): read, filter, simplify raw drawings, encode, split, write shards.",
        discussion: """
        Writes into the output directory: the shards ({split}-NNNNN-of-NNNNN.x.npy/.y.npy/.keys.txt \
        or .tfrecord), manifest.json (configuration, sources with SHA-256, class map, counts, shard \
        SHA-256s, record reconciliation) and quarantine.ndjson (rejected input lines, verbatim). \
        A re-run with unchanged inputs and configuration verifies the shards and does nothing else; \
        otherwise shards that already hold the right bytes are left untouched. Schema: docs/pipelines.md.
        """)

    @Option(name: .long, help: "Pipeline file (YAML), e.g. Pipelines/quickdraw-rnn.yaml.")
    var pipeline: String

    @Option(name: .customLong("category"), help: "Keep only this category (repeatable; replaces filters.categories and fixes the class order).")
    var categories: [String] = []

    @Option(name: .customLong("input"), help: "Input file or directory (repeatable; replaces source.inputs).")
    var inputs: [String] = []

    @Option(name: .long, help: "Output directory (replaces output.directory).")
    var output: String?

    @Flag(name: .long, help: "Re-read and re-encode even when manifest.json says the output is up to date (e.g. after upgrading sketchprep).")
    var force = false

    @Flag(name: .shortAndLong, help: "Do not print progress on stderr.")
    var quiet = false

    @OptionGroup var strictness: StrictOption

    func validate() throws {
        if let repeated = categories.firstRepeated {
            throw ValidationError("--category \(repeated) is given twice (each category is one class)")
        }
    }

    func run() throws {
        // Configuration errors name file, line and key; they are not usage errors, so no usage text.
        var config = try PipelineConfig.load(path: pipeline)
        if !categories.isEmpty { config.filters.categories = categories }
        if !inputs.isEmpty { config.source.inputs = inputs }
        if let output { config.output.directory = output }

        let outcome = try PipelineRunner(config: config, pipelineFile: pipeline, showProgress: !quiet, force: force).run()
        print(Self.summary(outcome))
        let records = outcome.manifest.records
        try strictness.check(RunTally(read: records.read, written: records.written + records.filtered,
                                      rejected: records.rejected, sourceErrors: records.sourceErrors),
                             command: "preprocess")
    }

    /// Where the shards are, counts per split, reconciliation.
    static func summary(_ outcome: PipelineOutcome) -> String {
        let m = outcome.manifest
        var lines = ["\(m.pipeline.name): \(outcome.upToDate ? "up to date (inputs, configuration and shard SHA-256s unchanged)" : "wrote") \(outcome.directory)/"]
        for split in SplitName.allCases {
            let counts = m.counts[split.rawValue]
            let shards = m.shards.filter { $0.split == split }
            let stems = Set(shards.map { $0.file.split(separator: ".").first.map(String.init) ?? $0.file })
            lines.append("  \(split.rawValue): \(counts?.total ?? 0) drawings in \(stems.count) shard(s)")
        }
        lines.append("  classes: \(m.classes.count) (\(m.classes.prefix(5).map(\.word).joined(separator: ", "))\(m.classes.count > 5 ? ", …" : ""))")
        let r = m.records
        lines.append("  read \(r.read) = written \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)"
            + (r.sourceErrors > 0 ? "; source errors \(r.sourceErrors)" : "")
            + (r.rejected + r.sourceErrors > 0 ? " (rejected lines in \(outcome.directory)/\(m.quarantine ?? PipelineRunner.quarantineName))" : ""))
        if r.duplicateKeyIDs > 0 {
            lines.append("  \(r.duplicateKeyIDs) written example(s) repeat an earlier key_id (all are kept; check the sources for copies)")
        }
        if !outcome.upToDate && outcome.reusedFiles > 0 {
            lines.append("  \(outcome.reusedFiles) shard file(s) were already complete and left untouched")
        }
        lines.append("  manifest: \(outcome.directory)/\(PipelineRunner.manifestName)")
        return lines.joined(separator: "\n")
    }
}
