import SketchIO

/// The values of a pipeline file that command-line options replaced. An error about a value names
/// what the user typed: the option (`--input`, `-o/--output`) when it came from the command line,
/// the YAML key (`source.inputs`, `output.directory`) and the file when it came from there.
package struct PipelineOverrides: Sendable {
    /// `--input` replaced `source.inputs`.
    package var inputs: Bool
    /// `-o/--output` replaced `output.directory`.
    package var output: Bool
    /// The dataset directory whose `manifest.json` the inputs were taken from (`preprocess --from`),
    /// or nil.
    package var recordedIn: String?

    package init(inputs: Bool = false, output: Bool = false, recordedIn: String? = nil) {
        self.inputs = inputs
        self.output = output
        self.recordedIn = recordedIn
    }
}

extension PipelineRunner {
    /// What the inputs are called in messages: `--input` or `source.inputs`.
    var inputsName: String { overrides.inputs ? "--input" : "source.inputs" }

    /// What the output directory is called in messages: `-o/--output` or `output.directory`.
    var outputName: String { overrides.output ? "-o/--output" : "output.directory" }

    /// Throws `PipelineError` for an input path that does not exist, saying where the path came from
    /// and, for a relative path, what it was resolved against (the working directory, not the
    /// pipeline file's directory) and that `--input` replaces `source.inputs`; for `--from`, the
    /// dataset whose manifest recorded the path, and where to run it.
    package func checkInputsExist() throws {
        for input in config.source.inputs where input != "-" && FileSystem.isMissing(input) {
            let relative = !input.hasPrefix("/")
            let workingDirectory = FileSystem.currentDirectory() ?? "."
            let resolved = relative ? " (resolved against the working directory \(workingDirectory))" : ""
            if overrides.inputs {
                throw PipelineError(.input, "--input \(input) not found\(resolved)")
            }
            if let dataset = overrides.recordedIn {
                throw PipelineError(
                    .input,
                    "\(dataset)/manifest.json: input \(input) of the recorded run not found\(resolved)"
                        + (relative
                            ? "; a dataset records its inputs as they were given: run --from in the directory the dataset was made from"
                            : ""))
            }
            throw PipelineError(
                .input,
                "\(pipelineFile): source.inputs: \(input) not found\(resolved)"
                    + (relative ? "; relative paths in a pipeline file are resolved against the working directory, not the file's" : "")
                    + "; give --input PATH, which replaces source.inputs, or run from the directory the paths are relative to")
        }
    }
}
