/// A user-facing failure of a command (printed without a stack trace).
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
