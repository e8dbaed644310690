import ArgumentParser
import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// `sketchprep import-bitmaps`: Google's official numpy_bitmap files → SketchPrep NPY shards.
struct ImportBitmapsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-bitmaps",
        abstract: "Turn Google's official 28×28 numpy_bitmap files (<word>.npy) into NPY shards with a manifest.",
        discussion: """
            One class per file (class order: sorted words, one a line in classes.txt); examples are uint8 28×28, white ink on black, as \
            published. Row i of <word>.npy is line i+1 of Google's simplified <word>.ndjson: with --simplified, \
            rows are keyed by that key_id (so they join with SketchPrep's renders in `sketchprep eval \
            --compare-shards`), otherwise by <word>/<row>. Use --first-row/--row-count to hold rows out, e.g. \
            rows 0–24 (the ones with vectors here) as a test-only set: --row-count 25 --split 0/0/100.

            Examples:
              sketchprep import-bitmaps --input numpy_bitmap/ -o bitmaps -q
              sketchprep import-bitmaps --input numpy_bitmap/cat.npy --simplified simplified/cat.ndjson --split 90/10/0 -o cat
            """)

    @Option(name: .customLong("input"), help: "A <word>.npy file or a directory of them (repeatable).")
    var inputs: [String]

    @Option(help: "Google's simplified <word>.ndjson file, or a directory of them, to key rows by key_id.")
    var simplified: String?

    @Option(help: "First row to import from each file.")
    var firstRow = 0

    @Option(help: "Rows to import from each file (default: all from --first-row on).")
    var rowCount: Int?

    @Option(help: "train/val/test percentages, by key_id hash (e.g. 90/10/0).")
    var split = "80/10/10"

    @Option(help: "Maximum examples per shard.")
    var examplesPerShard = 10_000

    @Option(help: "Seed of the per-split shuffle.")
    var seed: UInt64 = 42

    @Option(name: .shortAndLong, help: "Output directory.")
    var output: String

    @OptionGroup var quiet: QuietOption

    func validate() throws {
        _ = try splitShares()
        guard firstRow >= 0, (rowCount ?? 0) >= 0, (1...100_000_000).contains(examplesPerShard) else {
            throw ValidationError(
                "--first-row and --row-count must be 0 or more, --examples-per-shard between 1 and 100000000 (as output.examples_per_shard)"
            )
        }
        guard (rowCount ?? 0) <= Int.max - firstRow else { throw ValidationError("--first-row + --row-count is too large") }
    }

    func run() throws {
        let shares = try splitShares()
        var paths = OutputPathCheck()
        paths.inputs(inputs, option: "input")
        paths.inputs(simplified.map { [$0] } ?? [], option: "--simplified")
        paths.outputDirectory(output, option: "--output")
        try paths.verify()
        let job = NumpyBitmapImport(
            bitmapFiles: try Self.expand(inputs), simplifiedSource: simplified,
            rows: firstRow..<(rowCount.map { firstRow + $0 } ?? Int.max),
            sharding: ShardingOptions(
                format: .npy, examplesPerShard: examplesPerShard, seed: seed,
                split: try DatasetSplit(train: shares[0], val: shares[1], test: shares[2])),
            outputDirectory: output)
        let manifest = try job.run()
        let perSplit = manifest.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.total)" }.joined(separator: ", ")
        printToStandardError(
            "import-bitmaps: \(manifest.records.written) bitmaps of \(manifest.classes.count) classes (\(perSplit)) → \(output)/")
    }

    /// The train/val/test percentages of --split.
    private func splitShares() throws -> [Double] {
        let shares = split.split(separator: "/").compactMap { Double($0) }
        guard shares.count == 3 else { throw ValidationError("--split must be three percentages like 80/10/10, got '\(split)'") }
        return shares
    }

    /// Files as given, directories expanded to their sorted *.npy files.
    static func expand(_ inputs: [String]) throws -> [String] {
        try inputs.flatMap { input -> [String] in
            let (files, skipped) = try NumpyBitmapImport.bitmapFiles(input)
            printWarnings(skipped, tool: "import-bitmaps")
            return files
        }
    }
}
