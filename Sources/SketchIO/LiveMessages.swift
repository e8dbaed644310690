/// Where library code sends lines meant for a person watching a run: progress updates and each
/// rejected line as it is found. They go nowhere until the program installs a sink (the CLI
/// installs standard error once, at start-up), so library code never writes to a stream itself;
/// warnings that outlive a run are returned as values instead.
package enum LiveMessages {
    /// What a line is, so that the sink can show it right.
    package enum Kind: Sendable, Equatable {
        /// A message of its own.
        case line
        /// A progress update; on a terminal it replaces the previous update, and the `final` one
        /// stays.
        case progress(final: Bool)
    }

    private static let sink = LockedValue<(@Sendable (String, Kind) -> Void)?>(nil)

    /// Sends every later line to `newSink` (called under a lock, so lines never interleave).
    package static func install(_ newSink: @escaping @Sendable (String, Kind) -> Void) {
        sink.withLock { $0 = newSink }
    }

    /// Hands `text` to the installed sink; nothing happens when none is installed.
    package static func emit(_ text: String, as kind: Kind = .line) {
        sink.withLock { $0?(text, kind) }
    }
}
