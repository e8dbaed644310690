import SketchIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `message` and a newline to standard error in one `write(2)` call (unbuffered, so
/// diagnostics interleave correctly with progress lines). Control characters other than newline
/// and tab are escaped (``TerminalText/escaped(_:keepingLineBreaks:)``): text from data never
/// reaches the terminal as an escape sequence.
func printToStandardError(_ message: String) {
    printToStandardErrorRaw(TerminalText.escaped(message, keepingLineBreaks: true) + "\n")
}

/// Writes `text` to standard error as is (no newline added).
func printToStandardErrorRaw(_ text: String) {
    Array(text.utf8).withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Shows a library's live message (``LiveMessages``) on standard error: on a terminal, a progress
/// update overwrites the previous one; elsewhere (a log file) each update is a line.
func showLiveMessage(_ text: String, kind: LiveMessages.Kind) {
    switch kind {
    case .line:
        printToStandardError(text)
    case let .progress(final) where standardErrorIsTerminal:
        printToStandardErrorRaw("\r\u{1B}[K" + TerminalText.escaped(text) + (final ? "\n" : ""))
    case .progress:
        printToStandardError(text)
    }
}

private let standardErrorIsTerminal = isatty(STDERR_FILENO) != 0
