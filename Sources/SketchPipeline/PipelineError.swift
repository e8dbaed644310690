/// The one error type of SketchPipeline: a run that cannot go on as configured. `kind` says what
/// is wrong; `description` names the file, key or option and says what to change.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public enum Kind: String, Sendable {
        /// A pipeline file, a categories file or a command-line value that cannot run as given
        /// (a YAML key, `--partition`, `--min-exact`, a filter that matches nothing, …).
        case configuration
        /// An input that is missing, unreadable, of a kind the command does not take, or that holds
        /// nothing it can use.
        case input
        /// `--from`: the recorded run cannot be repeated (its inputs changed, its manifest does not
        /// record the pipeline).
        case recordedRun
        /// Partial directories, reduce parts or a staging area that are incomplete or do not
        /// belong together (`merge`).
        case partials
        /// An output directory that holds something the run must not replace, or cannot be cleared.
        case output
        /// A spill file the run wrote for itself that cannot be written or read back.
        case spill
        /// A broken invariant of the tool itself (a bug: please report it).
        case invariant
    }

    /// What is wrong.
    public var kind: Kind
    /// The message shown to the user.
    public var description: String

    /// Creates an error of `kind` with `description`.
    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
