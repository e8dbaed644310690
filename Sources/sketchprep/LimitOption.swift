import ArgumentParser

/// `--limit N`: read only the first N records (non-blank lines) of each input, to try a command
/// or a pipeline quickly. The same on every data command.
struct LimitOption: ParsableArguments {
    @Option(help: ArgumentHelp("Read only the first N records of each input (to try a command or pipeline quickly).", valueName: "N"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }
}
