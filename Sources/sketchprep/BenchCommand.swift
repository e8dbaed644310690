import ArgumentParser

/// `sketchprep bench`: throughput measurements, run by `make bench` next to their Python references.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput (single thread); see `make bench` for the side-by-side Python figures.",
        subcommands: [RasterBenchCommand.self]
    )
}
