/// A pipeline that cannot run as configured: a bad configuration value, an unusable source, or
/// counts that do not reconcile. The message names the file or key and says what to change.
public struct PipelineError: Error, CustomStringConvertible, Sendable {
    /// The message shown to the user.
    public var description: String

    /// Creates an error with `description`.
    public init(_ description: String) { self.description = description }
}
