import Foundation
import SketchDataset
import SketchFormats
import SketchIO

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
            let names = FileSystem.entryNames(of: place)
            for name in names.sorted() where name.hasPrefix(prefix) {
                let directory = "\(place)/\(name)"
                guard directory != own, !name.hasSuffix(TemporaryFiles.removingSuffix), !Self.ownerIsAliveHere(name),
                    let lock = try? OutputLock.acquire("\(directory)/\(DatasetLayout.runsDirectoryLock)", output: directory)
                else { continue }
                locks.append(lock)
                dead.append(directory)
                for file in FileSystem.entryNames(of: directory).sorted() where DatasetLayout.isChunkCheckpoint(file) {
                    guard let bytes = try? InputFile.readAll("\(directory)/\(file)", maximumBytes: MapCheckpoint.maximumFileBytes),
                        let checkpoint = try? JSONDecoder().decode(MapCheckpoint.self, from: Data(bytes))
                    else { continue }
                    found[checkpoint.key] = (checkpoint, directory)
                }
            }
        }
    }

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
        for directory in dead { FileSystem.removeTree(directory) }
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
