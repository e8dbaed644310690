import Foundation
import SketchDataset
import SketchFormats
import SketchIO

extension PartialManifest {
    /// Largest `partial.json` read: 64 MiB (its chunk list grows with the inputs: about 200 bytes a chunk).
    package static let maximumFileBytes = 64 << 20
    /// Most partitions a partial may declare.
    package static let maximumPartitions = 1_000_000

    /// The first value that cannot be right in a `partial.json` read back (a count out of range, a
    /// chunk index outside the chunk list, a partition outside its count, a run name that is not
    /// a plain relative path, a pipeline text over the pipeline cap), as `field: what is wrong`;
    /// nil for a partial sketchprep wrote.
    package var invalidField: String? {
        func count(_ value: Int, _ field: String) -> String? {
            (0...Manifest.maximumCount).contains(value) ? nil : "\(field): \(value) is not a count in 0…\(Manifest.maximumCount)"
        }
        guard (1...Self.maximumPartitions).contains(partition.count) else {
            return "partition.count: \(partition.count) is not in 1…\(Self.maximumPartitions)"
        }
        guard (0..<partition.count).contains(partition.index) else {
            return "partition.index: \(partition.index) is not in 0..<\(partition.count)"
        }
        guard pipelineText.utf8.count <= PipelineConfig.maximumTextBytes else {
            return "pipeline_text: longer than \(PipelineConfig.maximumTextBytes) bytes"
        }
        for (index, chunk) in chunks.enumerated() {
            if let problem = count(chunk.offset, "chunks[\(index)].offset") ?? chunk.bytes.flatMap({ count($0, "chunks[\(index)].bytes") })
            {
                return problem
            }
        }
        for (index, entry) in read.enumerated() {
            guard chunks.indices.contains(entry.chunk) else {
                return "read[\(index)].chunk: \(entry.chunk) is not an index of the \(chunks.count) chunks"
            }
            if let problem = count(entry.bytes, "read[\(index)].bytes") ?? count(entry.quarantined, "read[\(index)].quarantined") {
                return problem
            }
        }
        let counts = [
            (records.read, "records.read"), (records.written, "records.written"), (records.filtered, "records.filtered"),
            (records.rejected, "records.rejected"), (records.sourceErrors, "records.source_errors"),
            (records.duplicateKeyIDs, "records.duplicate_key_ids"), (rejectedSources, "rejected_sources"),
        ]
        for (value, field) in counts { if let problem = count(value, field) { return problem } }
        guard records.isReconciled else { return "records: read \(records.read) ≠ written + filtered + rejected" }
        var bucketTotal = 0
        for (index, entry) in bucketCounts.enumerated() {
            guard let pairs = entry.pairs() else { return "bucket_counts[\(index)]: \(BucketCounts.Sparse.rule)" }
            for pair in pairs {
                bucketTotal += pair.count  // at most 3,072 counts of at most 2³² − 1 each per word
                guard bucketTotal <= records.written else { break }
            }
        }
        guard bucketTotal == records.written else {
            return "bucket_counts: they count \(bucketTotal) examples, records.written is \(records.written)"
        }
        for (index, run) in runs.enumerated() {
            if let problem = DirectoryMember.lexicalProblem(run) { return "runs[\(index)]: \(TerminalText.escaped(run)) \(problem)" }
        }
        return nil
    }
}

extension PartialRun {
    /// The partial manifest in `bytes` (the in-memory entry point of ``load(_:)``, for tests and
    /// fuzzing): decoded and checked field by field (``PartialManifest/invalidField``); throws
    /// `PipelineError` naming `path` and the field.
    package static func decode(_ bytes: [UInt8], path: String) throws -> PartialManifest {
        guard bytes.count <= PartialManifest.maximumFileBytes else {
            throw PipelineError(
                .partials,
                "\(path) is larger than \(PartialManifest.maximumFileBytes) bytes, more than a partial manifest holds; re-run that partition"
            )
        }
        let partial: PartialManifest
        do {
            partial = try JSONDecoder().decode(PartialManifest.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw PipelineError(.partials, "\(path) is not a valid partial manifest (\(Manifest.describe(error))); re-run that partition")
        }
        if let problem = partial.invalidField {
            throw PipelineError(.partials, "\(path) is not a valid partial manifest: \(problem); re-run that partition")
        }
        return partial
    }

    /// The run files of `partial` (found in `directory`) as paths to open: each must be a regular
    /// file inside the directory (``DirectoryMember``).
    static func runPaths(of partial: PartialManifest, in directory: String) throws -> [String] {
        try partial.runs.enumerated().map { index, run in
            switch try DirectoryMember.resolve(
                run, in: directory, field: "runs[\(index)]", file: "\(directory)/\(DatasetLayout.partialManifest)")
            {
            case let .file(path, _): return path
            case .missing:
                throw PipelineError(
                    .partials, "\(directory)/\(run) is missing but \(DatasetLayout.partialManifest) lists it; re-run that partition")
            }
        }
    }
}
