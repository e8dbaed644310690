import ArgumentParser

/// `sketchprep bench`: throughput and memory measurements, one subcommand per job.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput and peak memory (release builds; see `make bench`).",
        subcommands: [BenchPreprocessCommand.self, BenchSimplifyCommand.self, RasterBenchCommand.self])
}
