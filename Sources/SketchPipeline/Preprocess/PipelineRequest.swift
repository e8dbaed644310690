import SketchDataset
import SketchFormats

/// What `preprocess` is asked to run: a pipeline file with the command-line options that replace
/// its values (`--category`, `--categories-file`, `--input`, `--format`, `--word`, `-o`), or the run
/// recorded in a dataset's manifest (`--from`). The one place those options meet the pipeline file,
/// so the CLI only parses them.
package enum PipelineRequest {
    /// The values of a pipeline file that command-line options replace; nil or empty: keep the file's.
    package struct Replacements {
        /// `--category`: `filters.categories`, in class order.
        package var categories: [String] = []
        /// `--categories-file`: `filters.categories` read from a file (``CategoriesFile``).
        package var categoriesFile: String?
        /// `--input`: `source.inputs`.
        package var inputs: [String] = []
        /// `--format`: `source.file_format`.
        package var fileFormat: DrawingFileFormat?
        /// `--word`: `source.word`.
        package var word: String?
        /// `-o/--output`: `output.directory`.
        package var output: String?

        package init() {}
    }

    /// How a run runs, whatever it runs: the options a run from a pipeline file and `--from` share.
    package struct RunSettings {
        /// `--jobs`: worker threads of the map side (and of hashing `--from`'s inputs).
        package var jobs: Int
        /// `--tmp-dir`: where sorted runs are spilled (nil: next to the output directory).
        package var temporaryDirectory: String?
        /// Print progress on stderr (no `--quiet`).
        package var showProgress: Bool
        /// `--force`: skip the up-to-date check and replace another pipeline's dataset.
        package var force: Bool

        /// Settings with these values.
        package init(jobs: Int, temporaryDirectory: String?, showProgress: Bool, force: Bool) {
            self.jobs = jobs
            self.temporaryDirectory = temporaryDirectory
            self.showProgress = showProgress
            self.force = force
        }
    }

    /// The runner of `pipelineFile` (a file, or a shipped pipeline's name: ``ShippedPipelines``) with
    /// `replacements` applied (configuration errors name file,
    /// line and key), and the replacements recorded so that messages name the option the user typed;
    /// it runs only `partition` when given (`--partition`), reads at most `recordLimit` records of each
    /// input (`--limit`) and records input paths as `recordedPaths` says (`--root`).
    package static func runner(
        pipelineFile: String, replacements: Replacements, partition: Partition?, recordLimit: Int?,
        recordedPaths: RecordedPaths, settings: RunSettings
    ) throws -> PipelineRunner {
        var config = try PipelineConfig.load(path: try ShippedPipelines.ofThisProcess.file(for: pipelineFile))
        if !replacements.categories.isEmpty { config.filters.categories = replacements.categories }
        if let file = replacements.categoriesFile { config.filters.categories = try CategoriesFile.read(file) }
        if !replacements.inputs.isEmpty { config.source.inputs = replacements.inputs }
        if let fileFormat = replacements.fileFormat { config.source.fileFormat = fileFormat }
        if let word = replacements.word { config.source.word = word }
        if let output = replacements.output { config.output.directory = output }
        var runner = makeRunner(config: config, pipelineFile: pipelineFile, settings: settings)
        runner.partition = partition
        runner.recordLimit = recordLimit
        runner.recordedPaths = recordedPaths
        runner.overrides = PipelineOverrides(inputs: !replacements.inputs.isEmpty, output: replacements.output != nil)
        return runner
    }

    /// `--from DIR`: the run recorded in `directory`'s manifest, into `output` (default
    /// `directory`), once every recorded input is found with its recorded size and SHA-256 (hashed
    /// on `settings.jobs` threads); throws `PipelineError` naming the input that is missing or changed.
    package static func recordedRun(directory: String, output: String?, settings: RunSettings) throws -> Rerun {
        let recorded = try RecordedRun.read(directory: directory)
        var config = recorded.config
        config.output.directory = output ?? directory
        var runner = makeRunner(config: config, pipelineFile: recorded.pipelineFile, settings: settings)
        runner.recordLimit = recorded.recordLimit
        runner.overrides = PipelineOverrides(output: output != nil, recordedIn: directory)
        let inputs = try runner.findInputs()
        let sources = try runner.measure(inputs)
        try recorded.checkInputs(sources)
        return Rerun(runner: runner, inputs: inputs, sources: sources)
    }

    /// A recorded run ready to run again: its runner, the inputs found and their manifest entries as
    /// checked against the recorded run (the run records those instead of hashing the inputs again).
    package struct Rerun {
        package var runner: PipelineRunner
        package var inputs: PipelineRunner.FoundInputs
        package var sources: [Manifest.SourceFileEntry]

        /// Runs it (``PipelineRunner/run(_:measured:)``).
        package func run() throws -> PipelineOutcome { try runner.run(inputs, measured: sources) }
    }

    /// The runner of `config` with `settings` applied: the one place both requests set them.
    private static func makeRunner(config: PipelineConfig, pipelineFile: String, settings: RunSettings) -> PipelineRunner {
        var runner = PipelineRunner(config: config, pipelineFile: pipelineFile, showProgress: settings.showProgress, force: settings.force)
        runner.jobs = settings.jobs
        runner.temporaryDirectory = settings.temporaryDirectory
        return runner
    }
}
