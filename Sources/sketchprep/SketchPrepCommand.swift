import ArgumentParser
import Foundation
import SketchCore
import SketchFormats
import SketchIO
import SketchPipeline

/// The `sketchprep` command-line tool: one subcommand per job. The program (SketchPrepMain) and the
/// wheel's launcher (the Python package's native library, `sketchprep_cli_main`) run ``main()``.
public struct SketchPrepCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
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

    /// Creates the root command (the argument parser's requirement).
    public init() {}

    /// Entry point: tunes the allocator, then parses the process's arguments and runs the
    /// subcommand; returns when it succeeded, exits the process otherwise.
    /// Exit codes (README, "Exit codes"): 0 success, 1 failure, 64 usage error.
    public static func main() {
        AllocatorTuning.keepFreedMemoryForReuse()
        InterruptCleanup.install()
        LiveMessages.install(showLiveMessage)
        exitNamingUndecodableArgument()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            exitNamingUnknownArgument()
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            InterruptCleanup.waitIfExiting()
            exit(withError: ReadableError.wrap(error))
        }
    }

    /// Before parsing: an argument that is not UTF-8 (a file name in another encoding) cannot name
    /// the file it came from once decoded, so it is refused naming its bytes (``PathBytes``), with
    /// the usage status 64, instead of "input not found" for a lossily decoded name.
    private static func exitNamingUndecodableArgument() {
        let arguments = (0..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { argument in
                Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            } ?? []
        }
        guard let problem = PathBytes.undecodableArgument(arguments) else { return }
        printToStandardError("Error: \(problem)")
        Foundation.exit(ExitCode.validationFailure.rawValue)
    }

    /// After a parse error: when the command line names a subcommand or long option that does not exist,
    /// says so with the closest real names (``UnknownArgumentCheck``) and exits with the usage status 64,
    /// instead of the parser's message about whatever it tripped over first (a "missing" `--output`).
    private static func exitNamingUnknownArgument() {
        guard let vocabulary = CommandVocabulary.of(Self.self),
            let problem = UnknownArgumentCheck.problem(in: Array(CommandLine.arguments.dropFirst()), root: vocabulary)
        else { return }
        printToStandardError("Error: \(problem.message)\n  See '\(problem.command) --help' for more information.")
        Foundation.exit(ExitCode.validationFailure.rawValue)
    }
}
