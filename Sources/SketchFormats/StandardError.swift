#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `message` and a newline to standard error in one `write(2)` call (unbuffered, so
/// diagnostics interleave correctly with progress lines).
package func printToStandardError(_ message: String) {
    printToStandardErrorRaw(message + "\n")
}

/// Writes `text` to standard error as is (no newline added).
package func printToStandardErrorRaw(_ text: String) {
    Array(text.utf8).withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
