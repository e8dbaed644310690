#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints progress of a long job on stderr: items done, items per second, bytes done and an ETA
/// when the total input size or the total number of items is known.
///
/// Updates are cheap to call per item: the clock is read every 256 calls and a line is printed
/// at most once per `interval` seconds (overwriting itself on a terminal, one line per update
/// otherwise). Call `finish()` once at the end for the final line.
package final class ProgressReporter {
    /// What is being counted, e.g. `drawings`.
    package let unit: String
    /// Total stored input bytes, when known.
    package let totalBytes: Int?
    /// Total items, when known (the reduce side knows how many examples it will write).
    package let totalItems: Int?
    /// Seconds between printed updates.
    package let interval: Double
    /// Whether anything is printed at all.
    package let isEnabled: Bool
    private let start: Double
    private var lastPrint: Double
    private var items = 0
    private var bytes = 0
    private let overwrite: Bool

    /// Creates a reporter; `enabled: false` silences it (e.g. for `--quiet`).
    package init(unit: String, totalBytes: Int?, totalItems: Int? = nil, interval: Double = 1, enabled: Bool = true) {
        self.unit = unit
        self.totalBytes = totalBytes
        self.totalItems = totalItems
        self.interval = interval
        self.isEnabled = enabled
        start = MonotonicClock.now()
        lastPrint = start
        overwrite = isatty(STDERR_FILENO) != 0
    }

    /// Seconds since the reporter was created.
    package var elapsedSeconds: Double { MonotonicClock.now() - start }

    /// Records `count` more items done (prints when a line is due).
    @inline(__always)
    package func advance(by count: Int = 1) {
        let before = items
        items += count
        if isEnabled && (before >> 8) != (items >> 8) { printIfDue() }
    }

    /// Records the stored input bytes consumed so far.
    package func update(bytesConsumed: Int) {
        bytes = bytesConsumed
    }

    /// Prints the final line (always, when enabled).
    package func finish() {
        guard isEnabled else { return }
        printLine(final: true)
    }

    private func printIfDue() {
        let now = MonotonicClock.now()
        guard now - lastPrint >= interval else { return }
        lastPrint = now
        printLine(final: false)
    }

    private func printLine(final: Bool) {
        let elapsed = max(MonotonicClock.now() - start, 1e-9)
        var text: String
        var fraction: Double?
        if let totalItems, totalItems > 0 {
            fraction = min(Double(items) / Double(totalItems), 1)
            text = "\(items) of \(totalItems) \(unit) (\(Int(fraction! * 100)) %), \(Int(Double(items) / elapsed))/s"
        } else {
            text = "\(items) \(unit), \(Int(Double(items) / elapsed)) \(unit)/s, \(Self.megabytes(bytes)) MB"
            if let totalBytes, totalBytes > 0 {
                fraction = min(Double(bytes) / Double(totalBytes), 1)
                text += " of \(Self.megabytes(totalBytes)) MB (\(Int(fraction! * 100)) %)"
            }
        }
        if !final, let fraction, fraction > 0 {
            text += ", ETA \(Int((elapsed / fraction - elapsed).rounded())) s"
        }
        text += ", \(Self.format(elapsed, decimals: 1)) s"
        if overwrite {
            printToStandardErrorRaw("\r\u{1B}[K" + text + (final ? "\n" : ""))
        } else {
            printToStandardError(text)
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        format(Double(bytes) / 1_000_000, decimals: 1)
    }

    private static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        guard decimals > 0 else { return "\(whole)" }
        let digits = String(fraction)
        return "\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
    }
}
