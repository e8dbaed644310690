/// A dataset that cannot be built, merged or read: the message names the file and what to do.
public struct DatasetError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public var description: String
    package init(_ description: String) { self.description = description }
}
