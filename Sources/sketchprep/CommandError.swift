import Foundation
import SketchFormats

/// A user-facing failure of a command (printed without a stack trace).
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The last line of defence for messages: a Foundation error (`NSError`, `CocoaError`) that
/// reached the entry point is shown as `PATH: reason` instead of Foundation's dump; every other
/// error (ArgumentParser's own, the modules' error types) passes through unchanged.
enum ReadableError {
    static func wrap(_ error: any Error) -> any Error {
        guard type(of: error) is NSError.Type || error is CocoaError || error is POSIXError else { return error }
        let nsError = error as NSError
        let path = (nsError.userInfo[NSFilePathErrorKey] as? String)
            ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        let reason = systemErrorText(error)
        return CommandError(path.map { "\($0): \(reason)" } ?? reason)
    }
}
