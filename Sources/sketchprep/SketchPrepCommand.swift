import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchIO

/// The `sketchprep` command-line tool: one subcommand per job.
@main
struct SketchPrepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sketchprep",
        abstract: "Offline preprocessing for sketch datasets (Quick, Draw!, TU-Berlin).",
        version: SketchPrepVersion.current,
        subcommands: [
            // Each subcommand lives in its own file; keep this list sorted.
            BitmapCommand.self,
            ContactSheetCommand.self,
            ConvertCommand.self,
            EncodeCommand.self,
            EvalCommand.self,
            ImportBitmapsCommand.self,
            InfoCommand.self,
            MergeCommand.self,
            ParityCommand.self,
            PreprocessCommand.self,
            RasterCommand.self,
            SimplifyCommand.self,
            StatsCommand.self,
            VerifyCommand.self,
        ]
    )

    /// Entry point: tunes the allocator, then parses the arguments and runs the subcommand.
    /// Exit codes (README, "Exit codes"): 0 success, 1 failure, 64 usage error.
    static func main() {
        AllocatorTuning.keepFreedMemoryForReuse()
        InterruptCleanup.install()
        LiveMessages.install(showLiveMessage)
        do {
            var command = try parseAsRoot(nil)
            try command.run()
        } catch {
            InterruptCleanup.waitIfExiting()
            exit(withError: ReadableError.wrap(error))
        }
    }
}
