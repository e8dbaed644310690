/// The names a command line may use, for telling a mistyped subcommand or option from a real one.
package struct CommandVocabulary: Sendable {
    /// The command's name as typed (`simplify`).
    package var name: String
    /// Its long option names without the dashes (`output`, `jobs`, `help`).
    package var longOptions: [String]
    /// Its subcommands.
    package var subcommands: [CommandVocabulary]

    package init(name: String, longOptions: [String], subcommands: [CommandVocabulary] = []) {
        self.name = name
        self.longOptions = longOptions
        self.subcommands = subcommands
    }
}

/// The one check behind "did you mean" for a command line the parser refused: the first subcommand
/// or long option it names that does not exist, with the closest real names (``ClosestNames``).
/// The argument parser reports some of these mistakes as something else (`--ouput x` as a missing
/// `--output`, `simplfy` as unexpected arguments); this names the word the user typed.
package enum UnknownArgumentCheck {
    /// The first unknown name of `arguments` (without the program name): the message (`unknown option
    /// '--ouput'; did you mean '--output'?`) and the command it was given to (`sketchprep simplify`), or nil
    /// when every subcommand and long option exists. Arguments after `--` are values, and so is a word
    /// after a command without subcommands.
    package static func problem(in arguments: [String], root: CommandVocabulary) -> (message: String, command: String)? {
        var command = root
        var path = [root.name]
        for argument in arguments {
            if argument == "--" { return nil }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                if !command.longOptions.contains(name) {
                    let close = ClosestNames.suggest(for: name, among: command.longOptions).map { "'--\($0)'" }
                    let message = "unknown option '--\(name)'" + (close.isEmpty ? "" : "; did you mean \(close.joined(separator: ", "))?")
                    return (message, path.joined(separator: " "))
                }
            } else if !argument.hasPrefix("-"), !command.subcommands.isEmpty {
                guard let next = command.subcommands.first(where: { $0.name == argument }) else {
                    let close = ClosestNames.suggest(for: argument, among: command.subcommands.map(\.name)).map { "'\($0)'" }
                    let message =
                        "unknown subcommand '\(argument)'" + (close.isEmpty ? "" : "; did you mean \(close.joined(separator: ", "))?")
                    return (message, path.joined(separator: " "))
                }
                command = next
                path.append(next.name)
            }
        }
        return nil
    }
}
