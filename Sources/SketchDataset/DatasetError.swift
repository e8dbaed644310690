/// The one error type of SketchDataset: a dataset that cannot be built, merged or read. `kind` says
/// what is wrong; `description` names the file and what to do.
public struct DatasetError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public enum Kind: String, Sendable {
        /// A dataset directory, its manifest or a shard that is missing or does not validate.
        case dataset
        /// An output directory that cannot be written, or that holds files but no dataset.
        case output
        /// An example the output format cannot hold (a payload of the wrong type or shape, a name
        /// too long, a key_id twice in one class).
        case example
        /// A sorted run file (the map side's spill) that is damaged, foreign or cannot be read.
        case runFile
        /// An input of `import-bitmaps` that is missing or not what it needs.
        case input
        /// Split shares or quotas that cannot be met.
        case configuration
        /// A broken invariant of the tool itself (a bug: please report it).
        case invariant
    }

    /// What is wrong.
    public var kind: Kind
    /// What is wrong, for the user.
    public var description: String

    /// Creates an error of `kind` with `description`.
    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
