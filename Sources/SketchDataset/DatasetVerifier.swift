import SketchFormats
import SketchIO

/// What `sketchprep verify` found in a dataset directory.
package struct DatasetVerification: Sendable, Equatable, Encodable {
    /// One thing that does not match the manifest.
    package struct Problem: Sendable, Equatable, Encodable {
        /// The file concerned (relative to the dataset directory), or `manifest.json` for counts.
        package var file: String
        /// `missing`, `size mismatch`, `sha256 mismatch`, `unreadable`, `extra shard`, `stray file` (a file
        /// that neither the manifest nor ``DatasetLayout/isOwnFile(_:)`` names), `count mismatch`,
        /// `invalid value` (a count out of range, a shard name that is not a plain relative path) or
        /// `refused path` (a shard that leads outside the directory or is not a regular file).
        package var kind: String
        /// Expected against found, in words.
        package var detail: String
    }

    /// The dataset directory as given.
    package var directory: String
    /// Files listed in the manifest's `shards`.
    package var listedFiles: Int
    /// Listed files present with the recorded size and SHA-256.
    package var matchingFiles: Int
    /// Examples the manifest says were written.
    package var examples: Int
    /// Everything that does not match, in the order found (files in manifest order, then extra
    /// shards and stray files by name, then counts).
    package var problems: [Problem]
    /// True when there is no problem.
    package var ok: Bool { problems.isEmpty }
    /// The `--limit` the dataset was built with (the manifest's `settings.record_limit`), nil for a
    /// whole-input run; for the summary, not part of the report's JSON.
    package var recordLimit: Int?

    enum CodingKeys: String, CodingKey {
        case directory
        case listedFiles = "listed_files"
        case matchingFiles = "matching_files"
        case examples, problems, ok
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory, forKey: .directory)
        try container.encode(listedFiles, forKey: .listedFiles)
        try container.encode(matchingFiles, forKey: .matchingFiles)
        try container.encode(examples, forKey: .examples)
        try container.encode(problems, forKey: .problems)
        try container.encode(ok, forKey: .ok)
    }
}

/// Checks a dataset directory against its `manifest.json`, so a dataset copied between machines
/// can be trusted: every listed shard file is re-hashed (size and SHA-256, in constant memory),
/// shard files of the naming scheme that the manifest does not list are reported as extra, any
/// other file that neither the manifest nor ``DatasetLayout/isOwnFile(_:)`` names as a stray, and
/// the counts are checked: the files of one shard agree on their example count, the shards of a
/// split add up to the split's total, per-class counts add up to it, the splits add up to
/// `records.written`, and `read = written + filtered + rejected`.
///
/// The manifest is untrusted: its counts are checked to be in range before any is added
/// (``Manifest/invalidFields``), each shard name must lead to a regular file inside the directory
/// (``DirectoryMember``), and a file larger than its recorded size is reported without reading it.
package enum DatasetVerifier {
    /// Verifies `directory`; throws `DatasetError` only when `manifest.json` cannot be read at all.
    package static func verify(directory: String, manifestName: String = DatasetLayout.manifest) throws -> DatasetVerification {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        let manifest: Manifest
        do {
            manifest = try Manifest.read(manifestName, in: base)
        } catch {
            throw DatasetTransaction.interruptedRun(at: base).map { DatasetError(.output, $0) } ?? error
        }
        var problems: [DatasetVerification.Problem] = []
        var matching = 0
        let invalid = manifest.invalidFields
        problems += invalid.map { .init(file: manifestName, kind: "invalid value", detail: "\($0.field): \($0.detail)") }
        for (index, shard) in manifest.shards.enumerated() where DirectoryMember.lexicalProblem(shard.file) == nil {
            if let problem = shardProblem(shard, index: index, in: base, manifestName: manifestName, hashing: true) {
                problems.append(problem)
            } else {
                matching += 1
            }
        }
        problems += unlistedFiles(in: base, manifest: manifest)
        // Counts out of range are reported above; adding them up could overflow.
        if invalid.isEmpty { problems += countProblems(manifest, manifestName: manifestName) }
        return DatasetVerification(
            directory: directory, listedFiles: manifest.shards.count, matchingFiles: matching,
            examples: manifest.records.written, problems: problems, recordLimit: manifest.settings?.recordLimit)
    }

    /// Files of `base` that the manifest does not list: `extra shard` for a shard file of any
    /// naming, `stray file` for anything else that is not one of SketchPrep's own files. The
    /// directories that hold listed files (`train/cat` of an image folder) are searched too.
    private static func unlistedFiles(in base: String, manifest: Manifest) -> [DatasetVerification.Problem] {
        let named = Set(manifest.shards.map(\.file) + (manifest.quarantine.map { [$0] } ?? []))
        var holding: Set<String> = []
        for file in named {
            var parts = file.split(separator: "/").dropLast()
            while !parts.isEmpty {
                holding.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        var problems: [DatasetVerification.Problem] = []
        func search(_ relative: String) {
            guard let entries = try? DirectoryWalk.entries(of: relative.isEmpty ? base : "\(base)/\(relative)") else { return }
            for entry in entries {
                let name = relative.isEmpty ? entry.name : "\(relative)/\(entry.name)"
                if case .directory = entry, holding.contains(name) {
                    search(name)
                    continue
                }
                guard !named.contains(name) && !(relative.isEmpty && DatasetLayout.isOwnFile(name)) else { continue }
                problems.append(
                    relative.isEmpty && ShardNaming.isShardFileName(name)
                        ? .init(file: TerminalText.escaped(name), kind: "extra shard", detail: "a shard file the manifest does not list")
                        : .init(
                            file: TerminalText.escaped(name), kind: "stray file",
                            detail: "neither the manifest nor SketchPrep's own files name it"))
            }
        }
        search("")
        return problems
    }

    /// What is wrong with listed shard `index` of a manifest read from `base`, or nil when it is a
    /// regular file inside the directory with the recorded size and (`hashing`) SHA-256: the check
    /// of ``verify(directory:manifestName:)`` and of the Python loaders (`sketchprep_manifest_check_shard`).
    package static func shardProblem(
        _ shard: ShardFileEntry, index: Int, in base: String, manifestName: String, hashing: Bool
    ) -> DatasetVerification.Problem? {
        let path: String
        do throws(DatasetError) {
            switch try DirectoryMember.resolve(shard.file, in: base, field: "shards[\(index)].file", file: manifestName) {
            case .missing:
                return .init(file: shard.file, kind: "missing", detail: "listed in the manifest but not present")
            case let .file(_, bytes) where bytes != shard.bytes:
                return .init(file: shard.file, kind: "size mismatch", detail: "expected \(shard.bytes) bytes, found \(bytes)")
            case let .file(resolved, _):
                path = resolved
            }
        } catch {
            return .init(file: TerminalText.escaped(shard.file), kind: "refused path", detail: error.description)
        }
        guard hashing else { return nil }
        let measured: (bytes: Int, sha256: String)
        do throws(IOError) {
            measured = try InputFile.measure(path, range: 0..<shard.bytes)
        } catch {
            return .init(file: shard.file, kind: "unreadable", detail: error.description)
        }
        if measured.bytes != shard.bytes {
            return .init(file: shard.file, kind: "size mismatch", detail: "expected \(shard.bytes) bytes, found \(measured.bytes)")
        }
        if measured.sha256 != shard.sha256 {
            return .init(file: shard.file, kind: "sha256 mismatch", detail: "expected \(shard.sha256), found \(measured.sha256)")
        }
        return nil
    }

    /// The count checks, each failure a `count mismatch` on `manifestName`.
    package static func countProblems(_ manifest: Manifest, manifestName: String) -> [DatasetVerification.Problem] {
        var problems: [DatasetVerification.Problem] = []
        func mismatch(_ detail: String) { problems.append(.init(file: manifestName, kind: "count mismatch", detail: detail)) }

        var examplesPerStem: [String: (split: SplitName?, examples: Int)] = [:]
        for shard in manifest.shards {
            // A shard's files share the base name up to its first dot (`train-00000-of-00001`).
            let base = shard.file.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            let stem = String(shard.file.dropLast(base.count)) + String(base.prefix { $0 != "." })
            if let known = examplesPerStem[stem], known.examples != shard.examples {
                mismatch("\(shard.file) holds \(shard.examples) examples but other files of shard \(stem) hold \(known.examples)")
            }
            examplesPerStem[stem] = (shard.split, shard.examples)
        }
        // Files that hold every split (sketch-rnn .npz, one per class) add up to the whole dataset.
        let holdsEverySplit = examplesPerStem.values.filter { $0.split == nil }
        let written = holdsEverySplit.reduce(0) { $0 + $1.examples }
        if !holdsEverySplit.isEmpty && written != manifest.records.written {
            mismatch("the files hold \(written) examples, records.written says \(manifest.records.written)")
        }
        var splitSum = 0
        for split in SplitName.allCases {
            let counts = manifest.counts[split.rawValue] ?? Manifest.SplitCounts(total: 0, perClass: [:])
            let inShards = examplesPerStem.values.filter { $0.split == split }.reduce(0) { $0 + $1.examples }
            if holdsEverySplit.isEmpty && inShards != counts.total {
                mismatch("\(split.rawValue): shards hold \(inShards) examples, counts.\(split.rawValue).total says \(counts.total)")
            }
            let perClass = counts.perClass.values.reduce(0, +)
            if perClass != counts.total {
                mismatch("\(split.rawValue): per-class counts add up to \(perClass), total says \(counts.total)")
            }
            splitSum += counts.total
        }
        if splitSum != manifest.records.written {
            mismatch("splits add up to \(splitSum) examples, records.written says \(manifest.records.written)")
        }
        let r = manifest.records
        if !r.isReconciled {
            mismatch("read \(r.read) ≠ written \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)")
        }
        return problems
    }
}
