import Foundation
import SketchDataset
import SketchFormats
import SketchIO
import SketchPipeline

/// A user-facing failure of a command (printed without a stack trace).
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The last line of defence for messages: a Foundation error (`NSError`, `CocoaError`) that
/// reached the entry point is shown as `PATH: reason` instead of Foundation's dump; every other
/// error of the modules is shown with its control characters escaped; ArgumentParser's own pass
/// through unchanged.
enum ReadableError {
    static func wrap(_ error: any Error) -> any Error {
        // The modules' messages quote data (paths, words, key_ids, manifest fields): their control
        // characters are escaped before they reach the terminal.
        if error is IOError || error is FormatError || error is DatasetError || error is PipelineError || error is CommandError {
            return CommandError(TerminalText.escaped("\(error)", keepingLineBreaks: true))
        }
        guard type(of: error) is NSError.Type || error is CocoaError || error is POSIXError else { return error }
        let nsError = error as NSError
        let path =
            (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        let reason = systemErrorText(error)
        return CommandError(path.map { "\($0): \(reason)" } ?? reason)
    }
}
