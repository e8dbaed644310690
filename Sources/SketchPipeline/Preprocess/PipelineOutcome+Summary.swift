import SketchDataset

extension PipelineOutcome {
    /// What `preprocess` and `merge` print: where the shards are, counts per split, reconciliation;
    /// for a partition, the chunks it mapped and how to join the partials.
    package var summary: String {
        let m = manifest
        if let chunks = partitionChunks {
            let r = m.records
            return """
                \(m.pipeline.name): partial output in \(directory)/ (\(chunks.read) of \(chunks.of) input chunks)
                  read \(r.read) = mapped \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)
                  join all partitions with: sketchprep merge PARTIAL_DIR… -o DATASET_DIR
                """
        }
        var lines = [
            "\(m.pipeline.name): \(upToDate ? "up to date (inputs, configuration, settings and shard SHA-256s unchanged)" : "wrote") \(directory)/"
        ]
        if !rebuildReasons.isEmpty {
            lines.append("  rebuilt: the dataset that was there differs in \(rebuildReasons.joined(separator: "; "))")
        }
        if let limit = m.settings?.recordLimit {
            lines.append("  a trial: only the first \(limit) record(s) of each input were read (--limit)")
        }
        // A shard is the files of one stem (NPY: three); a format not named in shards counts files.
        let suffixes = OutputFormat.of(files: m.shards.map(\.file))?.entry.shardSuffixes ?? []
        for split in SplitName.allCases {
            let counts = m.counts[split.rawValue]
            let shards = m.shards.filter { $0.split == split }
            let stems = Set(
                shards.map { shard in
                    suffixes.first { shard.file.hasSuffix($0) }.map { String(shard.file.dropLast($0.count)) } ?? shard.file
                })
            let unit = suffixes.isEmpty && !stems.isEmpty ? "file(s)" : "shard(s)"
            lines.append(
                "  \(split.rawValue): \(counts?.total ?? 0) drawings"
                    + (stems.isEmpty && !m.shards.isEmpty ? "" : " in \(stems.count) \(unit)"))
        }
        let everySplit = m.shards.filter { $0.split == nil }
        if !everySplit.isEmpty {
            lines.append(
                "  \(everySplit.count) file(s) holding every split, one per class (\(everySplit.prefix(3).map(\.file).joined(separator: ", "))\(everySplit.count > 3 ? ", …" : ""))"
            )
        }
        lines.append(
            "  classes: \(m.classes.count) (\(m.classes.prefix(5).map(\.word).joined(separator: ", "))\(m.classes.count > 5 ? ", …" : ""))")
        let r = m.records
        lines.append(
            "  read \(r.read) = written \(r.written) + filtered \(r.filtered) + rejected \(r.rejected)"
                + (r.sourceErrors > 0 ? "; source errors \(r.sourceErrors)" : "")
                + (r.rejected + r.sourceErrors > 0
                    ? " (rejected lines in \(directory)/\(m.quarantine ?? DatasetLayout.quarantine))" : ""))
        if r.duplicateKeyIDs > 0 {
            lines.append("  \(r.duplicateKeyIDs) written example(s) repeat an earlier key_id (all are kept; check the sources for copies)")
        }
        if reusedChunks > 0 {
            lines.append("  \(reusedChunks) input chunk(s) were mapped by an interrupted run and reused (checked by SHA-256)")
        }
        if !upToDate && reusedFiles > 0 {
            lines.append("  \(reusedFiles) shard file(s) were already complete and left untouched")
        }
        lines.append("  manifest: \(directory)/\(DatasetLayout.manifest)")
        return lines.joined(separator: "\n")
    }
}
