import ArgumentParser

/// The `sketchprep` command-line tool: one subcommand per job.
@main
struct SketchPrepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sketchprep",
        abstract: "Offline preprocessing for sketch datasets (Quick, Draw!, TU-Berlin).",
        subcommands: [
            // Each subcommand lives in its own file; keep this list sorted.
            BenchCommand.self,
            BitmapCommand.self,
            ContactSheetCommand.self,
            ConvertCommand.self,
            EncodeCommand.self,
            EvalCommand.self,
            ImportBitmapsCommand.self,
            ParityCommand.self,
            PreprocessCommand.self,
            RasterCommand.self,
            SimplifyCommand.self,
        ]
    )

    /// Entry point: tunes the allocator, then parses the arguments and runs the subcommand.
    static func main() {
        AllocatorTuning.keepFreedMemoryForReuse()
        main(nil)
    }
}
