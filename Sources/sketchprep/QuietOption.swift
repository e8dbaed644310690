import ArgumentParser

/// `-q/--quiet`: no progress or per-record messages on stderr; the summary line, warnings and
/// errors are still printed. The same on every command that shows progress.
struct QuietOption: ParsableArguments {
    @Flag(
        name: [.customShort("q"), .customLong("quiet")],
        help: "No progress or per-record messages on stderr (the summary, warnings and errors are still printed).")
    var isOn = false

    /// Whether progress and per-record messages are shown.
    var showsProgress: Bool { !isOn }
}
