import Dispatch
import Foundation
import SketchFormats
import SketchIO

/// What the tool does on SIGINT (Ctrl-C) and SIGTERM (a scheduler cancelling a job): removes the
/// run's temporary files (``TemporaryFiles``: unfinished atomic writes, unnamed shards, sorted
/// runs, spills), prints one line saying so, and exits with 128 + the signal number. Installed
/// once by the entry point; libraries only register their temporary files.
enum InterruptCleanup {
    /// The installed signal sources, kept alive for the life of the process.
    private static let sources = LockedValue<[any DispatchSourceSignal]>([])

    /// Routes SIGINT and SIGTERM to the clean-up (call before any work starts).
    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { cleanUpAndExit(signalNumber) }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }

    private static func cleanUpAndExit(_ signalNumber: Int32) -> Never {
        let removed = TemporaryFiles.removeAllForExit()
        let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
        let files = removed == 1 ? "1 temporary file or directory" : "\(removed) temporary files or directories"
        printToStandardError("sketchprep: interrupted by \(name); removed \(files) of this run")
        _exit(128 + signalNumber)
    }

    /// Called where the tool would report an error and exit: when the clean-up is under way, the
    /// error is a side effect of it (a file removed under a reader), so the thread waits for the
    /// clean-up's exit instead of printing a false message.
    static func waitIfExiting() {
        guard TemporaryFiles.isExiting else { return }
        while true { pause() }
    }
}
