/// Checks pipeline files without running them, for tools outside the package (the fuzzing
/// harnesses in `Fuzz/`, editors, pre-commit hooks).
public enum PipelineValidation {
    /// Parses and validates pipeline YAML text exactly as `sketchprep preprocess --pipeline` does.
    ///
    /// - Parameters:
    ///   - yaml: the pipeline file's text.
    ///   - file: the name used in error messages.
    /// - Throws: `PipelineError` naming the file, line and key of the first problem.
    public static func validate(yaml: String, file: String) throws {
        _ = try PipelineConfig.parse(text: yaml, file: file)
    }
}

extension PipelineValidation {
    /// Reads `partial.json` bytes exactly as `sketchprep merge` does before it opens any file:
    /// decoded, every count, index and member name checked.
    /// - Throws: `PipelineError` naming `file` and the field.
    public static func validatePartialManifest(json: [UInt8], file: String) throws {
        _ = try PartialRun.decode(json, path: file)
    }
}
