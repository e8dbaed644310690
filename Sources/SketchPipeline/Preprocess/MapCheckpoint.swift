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

/// Resume (docs/errors.md, "Resume after a kill"): a run's temporary directory carries a lock its
/// owner holds and a ``MapCheckpoint`` per finished chunk. A new run looks for the temporary
/// directories of dead runs where runs put them (the output's parent and `--tmp-dir`), takes each
/// one's lock (a live owner's is left alone), reuses the chunks whose checkpoint holds up, and
/// removes the dead directories once its own run has succeeded.
package final class MapResume {
    private let base: String
    private var locks: [OutputLock] = []
    private var dead: [String] = []
    /// Checkpoints found, by key, with the directory holding their files.
    private var found: [String: (checkpoint: MapCheckpoint, directory: String)] = [:]

    /// Finds dead runs' directories in `places` (skipping `own`); `identity` is what every chunk's
    /// key shares: the recorded configuration, settings and library versions.
    package init(places: [String], own: String, identity: [UInt8]) {
        var hasher = SHA256Hasher()
        hasher.update(identity)
        hasher.update(RunFile.magic)
        base = hasher.finalize().hexString
        let prefix = DatasetLayout.temporaryRunsDirectory + TemporaryFileName.marker
        for place in Set(places) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
            for name in names.sorted() where name.hasPrefix(prefix) {
                let directory = "\(place)/\(name)"
                guard directory != own, !name.hasSuffix(".removing"), !Self.ownerIsAliveHere(name),
                    let lock = try? OutputLock.acquire("\(directory)/\(DatasetLayout.runsDirectoryLock)", output: directory)
                else { continue }
                locks.append(lock)
                dead.append(directory)
                for file in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
                where file.hasPrefix("chunk-") && file.hasSuffix(".json") {
                    guard let bytes = try? InputFile.readAll("\(directory)/\(file)", maximumBytes: MapCheckpoint.maximumFileBytes),
                        let checkpoint = try? JSONDecoder().decode(MapCheckpoint.self, from: Data(bytes))
                    else { continue }
                    found[checkpoint.key] = (checkpoint, directory)
                }
            }
        }
    }

    /// Dead runs' directories found (reused from or not).
    package var deadDirectories: Int { dead.count }

    /// The key of chunk `index` (`chunk`, its input path as the run records it in `recordedPath`).
    package func key(chunk: InputChunk, index: Int, recordedPath: String) -> String {
        var hasher = SHA256Hasher()
        let range = chunk.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "whole"
        hasher.update(Array("\(base)\n\(index)\n\(chunk.path)\n\(recordedPath)\n\(range)\n\(chunk.format)\n\(chunk.word)\n".utf8))
        return hasher.finalize().hexString
    }

    /// The checkpoint of a dead run for chunk `chunk` under `key`, with its files' paths, when it
    /// holds up: the chunk's content now has the recorded SHA-256 (`digest`, when measured up
    /// front, else re-hashed) and every file has its recorded size and SHA-256.
    package func reusable(key: String, chunk: InputChunk, digest: String?) -> (checkpoint: MapCheckpoint, directory: String)? {
        guard let (checkpoint, directory) = found[key], checkpoint.countsAreInRange else { return nil }
        let content = digest ?? (try? InputFile.measure(chunk.path, range: chunk.range))?.sha256
        guard content == checkpoint.sha256 else { return nil }
        for file in checkpoint.files {
            guard DirectoryMember.lexicalProblem(file.name) == nil, !file.name.contains("/"),
                let measured = try? InputFile.measure("\(directory)/\(file.name)"),
                measured.bytes == file.bytes, measured.sha256 == file.sha256
            else { return nil }
        }
        return (checkpoint, directory)
    }

    /// Removes every dead run's directory found (after this run succeeded: nothing of a dead run
    /// outlives it) and releases their locks.
    package func removeDeadDirectories() {
        for directory in dead { try? FileManager.default.removeItem(atPath: directory) }
        for lock in locks { lock.release() }
        dead = []
        locks = []
    }

    /// Whether the temporary name `name` is of a process of this host that is still running (its
    /// lock may not exist yet, just after it made the directory).
    private static func ownerIsAliveHere(_ name: String) -> Bool {
        guard let owner = TemporaryFileName.owner(of: name), owner.host == TemporaryFileName.host else { return false }
        return owner.pid == getpid() || TemporaryFileName.isAlive(owner.pid)
    }
}

/// The map side's sink for resume: each chunk's examples go to run files of their own
/// (``SortedRunWriter/closeChunk()``) and its quarantined lines to a file of their own; when the
/// chunk ends, its ``MapCheckpoint`` is written next to them.
final class ChunkCheckpointWriter {
    private let directory: String
    private let key: (Int) -> String
    /// The chunk being mapped, and what the map has made of it so far.
    private(set) var chunk: Int?
    var current = MapOutput()
    private var quarantine: AtomicFileWriter?

    init(directory: String, key: @escaping (Int) -> String) {
        self.directory = directory
        self.key = key
    }

    /// Starts chunk `index`.
    func begin(_ index: Int) {
        chunk = index
        current = MapOutput()
    }

    /// Appends one quarantined line of the current chunk (with its newline).
    func quarantine(_ bytes: [UInt8]) throws {
        guard let chunk else { return }
        if quarantine == nil { quarantine = try AtomicFileWriter(path: "\(directory)/\(DatasetLayout.chunkQuarantine(chunk))") }
        try quarantine!.write(bytes)
        try quarantine!.write(CollectionOfOne(UInt8(ascii: "\n")))
    }

    /// Ends the current chunk: commits its quarantine file and, when its content SHA-256 is known
    /// (`digest`), writes its checkpoint over `runs`. Returns what the map made of the chunk.
    func close(runs: [String], digest: (bytes: Int, sha256: String)?, quarantined: Int) throws -> MapOutput {
        guard let chunk else { return MapOutput() }
        var files: [MapCheckpoint.FileEntry] = []
        if let quarantine {
            try quarantine.commit()
            self.quarantine = nil
            let measured = try InputFile.measure(quarantine.path)
            files.append(
                .init(name: DatasetLayout.chunkQuarantine(chunk), bytes: measured.bytes, sha256: measured.sha256, quarantine: true))
        }
        for run in runs {
            let measured = try InputFile.measure(run)
            files.append(
                .init(name: (run as NSString).lastPathComponent, bytes: measured.bytes, sha256: measured.sha256, quarantine: false))
        }
        var output = current
        output.runs = runs
        self.chunk = nil
        guard let digest, !digest.sha256.isEmpty else { return output }
        let checkpoint = MapCheckpoint(
            key: key(chunk), chunk: chunk, bytes: digest.bytes, sha256: digest.sha256, files: files, quarantined: quarantined,
            records: output.records, words: output.words.sorted, seenWords: output.seenWords.sorted,
            seenCountries: output.seenCountries.sorted(), bucketCounts: output.bucketCounts.sparse)
        try writeAtomically(try PartialRun.encodeJSON(checkpoint), to: "\(directory)/\(DatasetLayout.chunkCheckpoint(chunk))")
        TestStopPoint.chunkMapped.reached()
        return output
    }
}

extension MapOutput {
    /// Adds `other` (another chunk's map output) to this one.
    mutating func absorb(_ other: MapOutput) {
        runs += other.runs
        bucketCounts.formUnion(other.bucketCounts)
        records.read += other.records.read
        records.written += other.records.written
        records.filtered += other.records.filtered
        records.rejected += other.records.rejected
        records.sourceErrors += other.records.sourceErrors
        words.formUnion(other.words)
        seenWords.formUnion(other.seenWords)
        seenCountries.formUnion(other.seenCountries)
        chunks.merge(other.chunks) { $1 }
    }

    /// What a dead run's checkpoint of chunk `checkpoint.chunk` says, its run files in `directory`.
    init(reusing checkpoint: MapCheckpoint, in directory: String) throws {
        self.init()
        runs = checkpoint.files.filter { !$0.quarantine }.map { "\(directory)/\($0.name)" }
        bucketCounts = try BucketCounts(sparse: checkpoint.bucketCounts)
        records = checkpoint.records
        words = ClassWords(checkpoint.words)
        seenWords = ClassWords(checkpoint.seenWords)
        seenCountries = Set(checkpoint.seenCountries)
        chunks[checkpoint.chunk] = ChunkRecord(bytes: checkpoint.bytes, sha256: checkpoint.sha256, quarantined: checkpoint.quarantined)
    }
}
