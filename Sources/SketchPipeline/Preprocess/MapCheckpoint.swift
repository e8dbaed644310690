import Foundation
import SketchDataset
import SketchFormats
import SketchIO

/// What the map side made of one input chunk, written beside the chunk's run files once they are
/// complete (``DatasetLayout/chunkCheckpoint(_:)``), so that a rerun after a kill reuses the
/// chunk instead of mapping it again (``MapResume``). Every field is checked before use: the key
/// (settings and the chunk's identity), the chunk's content SHA-256 and each file's size and SHA-256.
package struct MapCheckpoint: Codable, Equatable {
    /// ``MapResume/key(chunk:index:)``: configuration, settings, versions, run format, the chunk.
    package var key: String
    package var chunk: Int
    /// The chunk's stored bytes and their SHA-256.
    package var bytes: Int
    package var sha256: String
    /// The chunk's run files and quarantine file, by name inside the checkpoint's directory.
    package var files: [FileEntry]
    package var quarantined: Int
    package var records: RecordCounts
    package var words: [String]
    package var seenWords: [String]
    package var seenCountries: [String]
    package var bucketCounts: [BucketCounts.Sparse]

    /// A file of the checkpoint with its size and SHA-256.
    package struct FileEntry: Codable, Equatable {
        package var name: String
        package var bytes: Int
        package var sha256: String
        /// True for the chunk's quarantine file, false for a run file.
        package var quarantine: Bool
    }

    /// Largest checkpoint file read.
    static let maximumFileBytes = 16 << 20

    /// Whether every count and size is in 0 … ``Manifest/maximumCount`` and the tally reconciles
    /// (a checkpoint is read back untrusted; its counts are added to the run's).
    var countsAreInRange: Bool {
        let r = records
        let values =
            [bytes, quarantined, r.read, r.written, r.filtered, r.rejected, r.sourceErrors, r.duplicateKeyIDs] + files.map(\.bytes)
        return values.allSatisfy { (0...Manifest.maximumCount).contains($0) } && r.isReconciled
    }
}
