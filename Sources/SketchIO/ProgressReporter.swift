/// Reports progress of a long job as live messages (``LiveMessages``): items done, items per second, bytes done and an ETA
/// when the total input size or the total number of items is known.
///
/// Updates are cheap to call per item: the clock is read every 256 calls and a line is sent
/// at most once per `interval` seconds (the sink shows it: the CLI overwrites the last update on a
/// terminal and writes one line per update otherwise). Call `finish()` once at the end for the final line.
package final class ProgressReporter {
    /// What is being counted, e.g. `drawings`.
    package let unit: String
    /// Total stored input bytes, when known.
    package let totalBytes: Int?
    /// Total items, when known (the reduce side knows how many examples it will write).
    package let totalItems: Int?
    /// Seconds between updates.
    package let interval: Double
    /// Whether anything is reported at all.
    package let isEnabled: Bool
    private let start: Double
    private var lastEmit: Double
    private var items = 0
    private var bytes = 0

    /// Creates a reporter; `enabled: false` silences it (e.g. for `--quiet`).
    package init(unit: String, totalBytes: Int?, totalItems: Int? = nil, interval: Double = 1, enabled: Bool = true) {
        self.unit = unit
        self.totalBytes = totalBytes
        self.totalItems = totalItems
        self.interval = interval
        self.isEnabled = enabled
        start = MonotonicClock.now()
        lastEmit = start
    }

    /// Seconds since the reporter was created.
    package var elapsedSeconds: Double { MonotonicClock.now() - start }

    /// Records `count` more items done (sends a line when one is due).
    @inline(__always)
    package func advance(by count: Int = 1) {
        let before = items
        items += count
        if isEnabled && (before >> 8) != (items >> 8) { emitIfDue() }
    }

    /// Records the stored input bytes consumed so far.
    package func update(bytesConsumed: Int) {
        bytes = bytesConsumed
    }

    /// Sends the final line (always, when enabled).
    package func finish() {
        guard isEnabled else { return }
        emitLine(final: true)
    }

    private func emitIfDue() {
        let now = MonotonicClock.now()
        guard now - lastEmit >= interval else { return }
        lastEmit = now
        emitLine(final: false)
    }

    private func emitLine(final: Bool) {
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
        LiveMessages.emit(text, as: .progress(final: final))
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
