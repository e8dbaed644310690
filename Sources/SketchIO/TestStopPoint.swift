import Foundation

/// Test-only: named points of a run where a test stops it to deliver a signal (docs/errors.md,
/// "Testing the crash states"). When `SKETCHPREP_TEST_STOP_AT` names the point, the run creates
/// the file `SKETCHPREP_TEST_STOP_FILE` and sleeps until a signal ends it; without the variables
/// (every ordinary run) a point does nothing.
package enum TestStopPoint: String, Sendable {
    /// The map side has mapped its first batch.
    case map
    /// The map side has finished its first input chunk (its checkpoint is written).
    case chunkMapped = "chunk-mapped"
    /// A reduce part has started.
    case reduce
    /// The dataset is complete in the staging area but for its manifest.
    case manifest
    /// The staging area and the output are exchanged; the old dataset is not yet removed.
    case swap
    /// The new dataset is in place and the old one removed; the lock is still held.
    case swapped

    private static let requested = ProcessInfo.processInfo.environment["SKETCHPREP_TEST_STOP_AT"]
    private static let file = ProcessInfo.processInfo.environment["SKETCHPREP_TEST_STOP_FILE"]

    /// Stops here when the environment asks for this point (never returns then).
    package func reached() {
        guard let requested = Self.requested, requested == rawValue, let file = Self.file else { return }
        try? writeAtomically(rawValue, to: file)
        while true { sleep(60) }
    }
}
