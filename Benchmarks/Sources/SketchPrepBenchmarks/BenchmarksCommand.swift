import ArgumentParser

/// `sketchprep-benchmarks`: each benchmark times sketchprep next to its Python reference in the
/// same run and checks the speed-ups against `Benchmarks/Thresholds/<benchmark>.json`.
@main
struct BenchmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sketchprep-benchmarks",
        abstract: "Throughput and peak memory of sketchprep next to the Python reference (release builds; see `make bench`).",
        discussion: """
            Each benchmark prints its measurements and the speed-ups over the Python reference measured \
            in the same run. With --thresholds DIR it reads DIR/<benchmark>.json (speed-up name → \
            minimum) and exits with status 1 when a speed-up falls below its minimum.
            """,
        subcommands: [
            BenchSimplifyCommand.self, BenchPreprocessCommand.self, BenchRasterCommand.self,
            BenchInstructionsCommand.self, BenchSimplifyLoopCommand.self, BenchReadDecodeCommand.self,
        ])
}
