import SketchFormats
import SketchIO

/// The name of every file SketchPrep writes into a dataset directory, a partition's directory
/// (`preprocess --partition`) and a run's temporary directory: the one place a file of a dataset
/// is named. Shard stems (`{split}-NNNNN-of-NNNNN`) are ``ShardNaming``'s; their suffixes are here.
package enum DatasetLayout {
    /// The dataset's description: classes, counts, shards with checksums, settings (docs/manifest.md).
    package static let manifest = "manifest.json"
    /// The class words, one a line; line n is label n.
    package static let classes = "classes.txt"
    /// Rejected records and source errors, one JSON line each.
    package static let quarantine = "quarantine.ndjson"
    /// Where the run's time went (wall-clock, so left out of every byte comparison).
    package static let timings = "timings.json"

    /// A partition's record of its map side, read by `merge`.
    package static let partialManifest = "partial.json"
    /// The directory of a partition's sorted runs, inside its output directory.
    package static let partialRunsDirectory = "runs"
    /// The temporary directory of a run's sorted runs (a fresh name is made from it), next to the output.
    package static let temporaryRunsDirectory = ".sketchprep-runs"

    /// Beside an output directory `name` (in its parent): where a run builds the new dataset, or
    /// partial, before it swaps it in (``DatasetTransaction``); `merge --reduce` parts write here.
    package static func stagingDirectory(of name: String) -> String { ".\(name)\(transactionMarker)staging" }
    /// Beside an output directory `name`: the old dataset while a swap without an atomic exchange
    /// is half done (the next run renames it back).
    package static func asideDirectory(of name: String) -> String { ".\(name)\(transactionMarker)old" }
    /// Beside an output directory `name`: the lock file of the run writing it (``OutputLock``).
    package static func lockFile(of name: String) -> String { ".\(name)\(transactionMarker)lock" }
    /// Beside an output directory `name`: the lock file of reduce part `part` of `parts` writing into its staging area.
    package static func reducePartLockFile(of name: String, part: Int, of parts: Int) -> String {
        "\(lockFile(of: name))\(reducePartPrefix)\(part)-of-\(parts)"
    }
    /// What the names of a transaction's files beside an output carry.
    package static let transactionMarker = ".sketchprep-"

    /// In a run's temporary directory: the lock its live owner holds, so a later run tells a dead
    /// run's leftovers (reused or removed) from a live one's (left alone).
    package static let runsDirectoryLock = "owner.lock"
    /// In a run's temporary directory: what the map made of input chunk `chunk` (``MapCheckpoint``), for resume.
    package static func chunkCheckpoint(_ chunk: Int) -> String { "\(chunkPrefix)\(chunk)\(chunkCheckpointSuffix)" }
    /// Whether `name` (an entry of a run's temporary directory) is a chunk's checkpoint (``chunkCheckpoint(_:)``).
    package static func isChunkCheckpoint(_ name: String) -> Bool {
        name.hasPrefix(chunkPrefix) && name.hasSuffix(chunkCheckpointSuffix)
    }
    private static let chunkPrefix = "chunk-"
    private static let chunkCheckpointSuffix = ".json"
    /// In a run's temporary directory: input chunk `chunk`'s quarantined lines.
    package static func chunkQuarantine(_ chunk: Int) -> String { "\(chunkPrefix)\(chunk).quarantine.ndjson" }

    /// Reduce part `part` of `parts`'s report in the dataset directory (`merge --reduce i/R`),
    /// read and removed by the finalize step.
    package static func reduceReport(part: Int, of parts: Int) -> String { "\(reducePartPrefix)\(part)-of-\(parts)\(reduceReportSuffix)" }
    /// Reduce part `part` of `parts`'s quarantined examples, appended to the quarantine by the finalize step.
    package static func reduceQuarantine(part: Int, of parts: Int) -> String { "\(reducePartPrefix)\(part)-of-\(parts).quarantine.ndjson" }
    /// The part and number of parts that the reduce report file `name` belongs to (the inverse of
    /// ``reduceReport(part:of:)``); nil for any other name.
    package static func reduceReportPart(_ name: String) -> (part: Int, parts: Int)? {
        guard name.hasPrefix(reducePartPrefix), name.hasSuffix(reduceReportSuffix) else { return nil }
        let numbers = name.dropFirst(reducePartPrefix.count).dropLast(reduceReportSuffix.count).split(
            separator: "-", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers[1] == "of", let part = Int(numbers[0]), let parts = Int(numbers[2]) else { return nil }
        guard reduceReport(part: part, of: parts) == name else { return nil }
        return (part, parts)
    }
    private static let reduceReportSuffix = ".json"
    /// In a staging area: which run of `merge --reduce i/R` parts writes there (number of parts,
    /// their input and configuration), so a part of another run is refused; removed by the finalize step.
    package static let reduceRunMark = "\(reducePartPrefix)run.txt"
    /// How every reduce part's file name starts.
    package static let reducePartPrefix = ".reduce-"

    /// The names of the files SketchPrep itself writes into a dataset directory beside the shards
    /// and the quarantine that its manifest names (`verify` reports any other file as a stray).
    /// Hidden names (reduce parts' reports and quarantines, locks) are never listed as strays.
    package static let ownFileNames: Set<String> = [manifest, classes, quarantine, timings, ShardNaming.tutorialClassesFile]

    /// Whether `name` (an entry of a dataset directory) is one of SketchPrep's own files: in
    /// ``ownFileNames``, or hidden (a leading `.`: reduce parts' files, locks, staging names).
    package static func isOwnFile(_ name: String) -> Bool {
        ownFileNames.contains(name) || name.hasPrefix(".")
    }

    /// What a command that writes one output file or directory writes there, which names the
    /// quarantine it writes beside it (``quarantine(_:beside:of:)``).
    package enum CommandOutput: Sendable {
        /// An `.npy` of drawings (`encode`, `bitmap`): rejected lines go to `OUT.rejected.ndjson`.
        case drawingArray
        /// An `.npy` of images (`raster`): rejected files' paths go to `OUT.rejected.txt`.
        case imageArray
        /// An NDJSON file (`simplify`): rejected lines go to `OUT.rejected.ndjson`.
        case drawingLines
    }

    /// A command's quarantine: `given` (`--quarantine`), else the file beside `output` named
    /// for what `output` is (``CommandOutput``): `OUT.npy` → `OUT.rejected.ndjson` or
    /// `OUT.rejected.txt`, `OUT.ndjson` → `OUT.rejected.ndjson`. Nil (rejections only counted
    /// and reported) when `output` is a stream and no `--quarantine` was given.
    package static func quarantine(_ given: String?, beside output: String, of kind: CommandOutput) -> String? {
        if let given { return given }
        switch kind {
        case .drawingArray: return OutputTarget.sidecar(of: output, replacing: ".npy", with: rejectedLinesSuffix)
        case .imageArray: return OutputTarget.sidecar(of: output, replacing: ".npy", with: ".rejected.txt")
        case .drawingLines: return OutputTarget.sidecar(of: output, replacing: ".ndjson", with: rejectedLinesSuffix)
        }
    }

    /// The quarantine of a command that writes a directory of files (`convert`): `given`
    /// (`--quarantine`), else `OUT.rejected.ndjson` beside the directory `OUT`.
    package static func quarantine(_ given: String?, besideDirectory output: String) -> String {
        given ?? (output.hasSuffix("/") ? String(output.dropLast()) : output) + rejectedLinesSuffix
    }
    private static let rejectedLinesSuffix = ".rejected.ndjson"

    /// `stats`'s quarantine in its output directory: every rejected line, verbatim.
    package static let statsQuarantine = "rejected.ndjson"

    /// A report's wall-clock figures beside the report `reportPath` (`--report-json FILE`):
    /// `FILE.timings.json` in place of `.json`; nil when the report goes to a stream.
    package static func timings(beside reportPath: String) -> String? {
        OutputTarget.sidecar(of: reportPath, replacing: ".json", with: ".timings.json")
    }

    /// `eval`'s reports in its output directory.
    package static let evaluationReports = (json: "report.json", markdown: "report.md", html: "report.html")

    /// Sorted run `index` of a run's temporary directory.
    package static func sortedRun(_ index: Int) -> String {
        "run-\(String(index).leftPadded(to: 5)).bin"
    }

    /// A sketch-rnn stroke-3 file of a class (`output.format: npz`, `convert --to stroke3`).
    package static let stroke3Suffix = ".npz"
    /// A Google `.bin` file of a class (`convert --to bin`).
    package static let binarySuffix = ".bin"
    /// A simplified NDJSON file of a class (`convert --to ndjson`).
    package static let drawingLinesSuffix = ".ndjson"

    /// `convert`'s file of class `word` in its output directory: `{word}{suffix}`.
    package static func convertedFile(word: String, suffix: String) -> String { word + suffix }

    /// An NPY shard's features, `(N, shape…)`.
    package static let featuresSuffix = ".x.npy"
    /// An NPY shard's int32 labels, `(N,)`.
    package static let labelsSuffix = ".y.npy"
    /// An NPY shard's key_ids, one a line in example order.
    package static let keysSuffix = ".keys.txt"
    /// A TFRecord shard.
    package static let tfrecordSuffix = ".tfrecord"
    /// A WebDataset shard.
    package static let tarSuffix = ".tar"
    /// The files of one NPY shard, in writing order.
    package static let npyShardSuffixes = [featuresSuffix, labelsSuffix, keysSuffix]
}
