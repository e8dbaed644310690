import Foundation
import SketchIO
import SystemPackage

/// A rebuild as a transaction (docs/errors.md, "How a dataset is replaced"): the run locks its
/// output, builds the new dataset in a staging directory beside it (same parent, so the same file
/// system; ``DatasetLayout/stagingDirectory(of:)``) and swaps it in only once it is complete, so
/// the old dataset stays whole, byte for byte, until then. The swap exchanges the two directories
/// in one step where the file system can (`renameat2(RENAME_EXCHANGE)`), and otherwise renames
/// the old one aside, the staging area into place, then removes the old one; ``begin(_:keepingStaging:)``
/// rolls back a swap a dead run left half done, and removes a dead run's staging area.
package final class DatasetTransaction {
    /// The output directory (symbolic links resolved).
    package let output: String
    /// Where the run writes the new dataset.
    package let staging: String
    private let aside: String
    private let parent: String
    private let lock: OutputLock
    private let keepsStagingOnError: Bool
    private var finished = false

    private init(output: String, lock: OutputLock, keepsStagingOnError: Bool) {
        self.output = output
        let name = Self.name(of: output)
        parent = parentDirectory(of: output)
        staging = "\(parent)/\(DatasetLayout.stagingDirectory(of: name))"
        aside = "\(parent)/\(DatasetLayout.asideDirectory(of: name))"
        self.lock = lock
        self.keepsStagingOnError = keepsStagingOnError
    }

    deinit { if !finished { abort() } }

    /// Locks `output` (refusing at once when another live run holds it), finishes what a dead
    /// run left (rolls back a half-done swap; removes its staging area unless `keepingStaging`,
    /// which `merge --finalize` sets to keep the reduce parts' work) and opens the staging area.
    /// A directory that holds files but neither a dataset nor a partial is refused: the swap
    /// replaces the directory as a whole.
    package static func begin(_ output: String, keepingStaging: Bool = false) throws -> DatasetTransaction {
        let resolved = resolvingLink(output)
        let parent = parentDirectory(of: resolved)
        try createDirectories(parent)
        let name = Self.name(of: resolved)
        let lock = try OutputLock.acquire("\(parent)/\(DatasetLayout.lockFile(of: name))", output: output)
        let transaction = DatasetTransaction(output: resolved, lock: lock, keepsStagingOnError: keepingStaging)
        do {
            try transaction.recover(keepingStaging: keepingStaging)
            try transaction.refuseForeignDirectory()
        } catch {
            transaction.abort()
            throw error
        }
        return transaction
    }

    /// Joins the staging area of `output` as reduce part `part` of `parts` (`merge --reduce i/R`):
    /// a shared lock on the output (so no whole run or finalize step writes it meanwhile) and an
    /// exclusive one on the part. Returns the locks (held until released) and the staging area.
    package static func joinAsPart(_ output: String, part: Int, of parts: Int) throws -> (locks: [OutputLock], staging: String) {
        let resolved = resolvingLink(output)
        let parent = parentDirectory(of: resolved)
        try createDirectories(parent)
        let name = Self.name(of: resolved)
        let shared = try OutputLock.acquire("\(parent)/\(DatasetLayout.lockFile(of: name))", output: output, shared: true)
        let own = try OutputLock.acquire(
            "\(parent)/\(DatasetLayout.reducePartLockFile(of: name, part: part, of: parts))",
            output: "\(output) (reduce part \(part)/\(parts))")
        let staging = "\(parent)/\(DatasetLayout.stagingDirectory(of: name))"
        try createDirectories(staging)
        return ([own, shared], staging)
    }

    /// Hard-links the old dataset's files `names` (plain names of regular files in the output) into
    /// the staging area, so a shard the new dataset writes with the same bytes is left as it was
    /// (``HashedFileSink``) and keeps its inode; writes replace a linked file by a rename, never
    /// in place, so the old dataset's bytes cannot change. Files the new dataset does not list are
    /// removed from the staging area with the stale shards.
    package func carryOver(_ names: [String]) {
        for name in names where DirectoryMember.lexicalProblem(name) == nil && !name.contains("/") {
            guard (try? FileSystem.linkStatus("\(output)/\(name)"))?.isRegular == true else { continue }
            _ = DirectorySwap.link("\(output)/\(name)", as: "\(staging)/\(name)")
        }
    }

    /// Makes the staging area the output: syncs it to disk, swaps it in, removes the old dataset
    /// and releases the lock.
    package func commit() throws {
        precondition(!finished, "DatasetTransaction.commit() called twice")
        try Durability.syncFileSystem(holding: staging)
        if FileSystem.linkExists(output) {
            let old = try TemporaryFiles.whileCleanUpWaits { () throws -> String in
                if try DirectorySwap.exchange(staging, output) { return staging }
                try DirectorySwap.rename(output, to: aside)
                try DirectorySwap.rename(staging, to: output)
                return aside
            }
            try Durability.syncDirectory(parent)
            TestStopPoint.swap.reached()
            FileSystem.removeTree(old)
        } else {
            try TemporaryFiles.whileCleanUpWaits { () throws in try DirectorySwap.rename(staging, to: output) }
        }
        TemporaryFiles.unregister(staging)
        try Durability.syncDirectory(parent)
        finished = true
        TestStopPoint.swapped.reached()
        lock.release()
    }

    /// Ends the run without a new dataset (an error, or an output found up to date): the old one
    /// stays as it was, the staging area is removed (kept for `merge --finalize`, whose parts'
    /// work it holds), the lock released; nothing after ``commit()``.
    package func abort() {
        guard !finished else { return }
        finished = true
        if !keepsStagingOnError { TemporaryFiles.removeDirectory(staging) }
        lock.release()
    }

    /// A swap a dead run left half done (old dataset aside, none at the output) is rolled back; an
    /// old dataset left aside after a finished swap is removed; a dead run's staging area is
    /// removed, and a fresh one is made and registered as this run's temporary directory.
    private func recover(keepingStaging: Bool) throws {
        if FileSystem.linkExists(aside) {
            if FileSystem.linkExists(output) {
                FileSystem.removeTree(aside)
            } else {
                try DirectorySwap.rename(aside, to: output)
            }
            try Durability.syncDirectory(parent)
        }
        if keepingStaging {
            guard FileSystem.linkExists(staging) else {
                throw DatasetError(
                    .output,
                    "\(output) has no staging area (\(staging)): run every `sketchprep merge PARTIALS… -o \(output) --reduce i/R` first")
            }
            return
        }
        if FileSystem.linkExists(staging) { FileSystem.removeTree(staging) }
        let made = TemporaryFiles.create(staging) {
            Result { () throws(Errno) in try FileSystem.makeDirectory(staging, permissions: 0o755) }
        }
        if case .failure(let error) = made {
            TemporaryFiles.unregister(staging)
            throw IOError(.write, path: staging, errno: error)
        }
    }

    /// Refuses an output that exists as something other than a directory, or as a directory
    /// holding, without a manifest or a partial, a file the tool does not write (the swap would
    /// discard it).
    private func refuseForeignDirectory() throws {
        guard let status = try? FileSystem.linkStatus(output) else { return }
        guard status.isDirectory else {
            throw DatasetError(.output, "\(output) exists and is not a directory: choose another output directory")
        }
        let entries = FileSystem.entryNames(of: output)
        guard !entries.contains(DatasetLayout.manifest), !entries.contains(DatasetLayout.partialManifest),
            let foreign = entries.sorted().first(where: { !Self.isToolFileName($0) })
        else { return }
        throw DatasetError(
            .output,
            "\(output) holds files but no dataset (no \(DatasetLayout.manifest)), e.g. \(TerminalText.escaped(foreign)); "
                + "a run replaces its output directory as a whole: choose a new or empty directory")
    }

    /// Whether `name` is one the tool writes into a dataset or partial directory.
    private static func isToolFileName(_ name: String) -> Bool {
        [
            DatasetLayout.manifest, DatasetLayout.classes, DatasetLayout.quarantine, DatasetLayout.timings,
            DatasetLayout.partialRunsDirectory, ShardNaming.tutorialClassesFile,
        ].contains(name) || name.hasPrefix(DatasetLayout.reducePartPrefix) || name.hasSuffix(DatasetLayout.stroke3Suffix)
            || name.contains(TemporaryFileName.marker) || ShardNaming.isShardFileName(name)
    }

    /// What a dead run left at `output` when it has no dataset: a staging area (a build that was
    /// interrupted) or an old dataset renamed aside (a swap half done); nil when neither is there.
    package static func interruptedRun(at output: String) -> String? {
        let resolved = resolvingLink(output)
        let parent = parentDirectory(of: resolved)
        let name = Self.name(of: resolved)
        let aside = "\(parent)/\(DatasetLayout.asideDirectory(of: name))"
        if FileSystem.linkExists(aside) {
            return "\(output) has no dataset: a run was interrupted while it swapped a new dataset in; the old one is in \(aside) "
                + "(the next run into \(output) puts it back)"
        }
        let staging = "\(parent)/\(DatasetLayout.stagingDirectory(of: name))"
        guard FileSystem.linkExists(staging) else { return nil }
        return "\(output) has no dataset: a run into it was interrupted before it finished (its staging area \(staging) is left); "
            + "run it again (the next run removes the staging area)"
    }

    /// `path` with a symbolic link at its end resolved (the transaction swaps the directory the link
    /// names), and made absolute when it ends in `.` or `..` (which name no entry of a parent).
    private static func resolvingLink(_ path: String) -> String {
        if (try? FileSystem.linkStatus(path))?.kind == .symbolicLink {
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        let last = FilePath(path).lastComponent?.string ?? ""
        return last == "." || last == ".." || last.isEmpty ? URL(fileURLWithPath: path).standardizedFileURL.path : path
    }

    /// The last component of `path` (the output's name its staging area and lock file are named after).
    private static func name(of path: String) -> String {
        FilePath(path).lastComponent?.string ?? path
    }
}
