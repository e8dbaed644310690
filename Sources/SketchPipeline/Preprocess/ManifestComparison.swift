import SketchDataset
import SketchFormats

/// What differs between a dataset's manifest and the run about to write into its directory, in
/// words a user recognizes (`--limit 5 → none`, `filters.categories`), so a rebuild says why.
enum ManifestComparison {
    /// Each difference, in a fixed order; empty when the run would write the same dataset.
    static func differences(
        existing: Manifest, pipeline: Manifest.PipelineInfo, settings: Manifest.RunSettings,
        sources: [Manifest.SourceFileEntry]?, libraries: [String: String]
    ) -> [String] {
        var differences: [String] = []
        if existing.formatVersion != Manifest.currentFormatVersion {
            differences.append("manifest format \(existing.formatVersion) → \(Manifest.currentFormatVersion)")
        }
        for (name, version) in libraries.sorted(by: { $0.key < $1.key }) where existing.libraries?[name] != version {
            differences.append("\(name) \(existing.libraries?[name] ?? "unknown") → \(version)")
        }
        let oldLimit = existing.settings?.recordLimit
        if existing.settings == nil || oldLimit != settings.recordLimit {
            differences.append("--limit \(oldLimit.map(String.init) ?? "none") → \(settings.recordLimit.map(String.init) ?? "none")")
        }
        if existing.pipeline.file != pipeline.file {
            differences.append("pipeline file \(existing.pipeline.file) → \(pipeline.file)")
        } else if existing.settings?.pipelineSHA256 != settings.pipelineSHA256 {
            differences.append("pipeline file \(pipeline.file) changed")
        }
        differences += configDifferences(existing.pipeline.config, pipeline.config, path: "")
        if let sources, sources != existing.sources {
            let old = Set(existing.sources.map { "\($0.path)@\($0.offset ?? 0):\($0.sha256)" })
            let changed = sources.filter { !old.contains("\($0.path)@\($0.offset ?? 0):\($0.sha256)") }.count
            differences.append("inputs: \(existing.sources.count) → \(sources.count) source entries, \(changed) new or changed")
        }
        return differences
    }

    /// Dotted paths of the configuration values that differ (`filters.categories`).
    private static func configDifferences(_ old: JSONValue, _ new: JSONValue, path: String) -> [String] {
        guard old != new else { return [] }
        if case let .object(a) = old, case let .object(b) = new {
            return Set(a.keys).union(b.keys).sorted().flatMap { key in
                configDifferences(a[key] ?? .null, b[key] ?? .null, path: path.isEmpty ? key : "\(path).\(key)")
            }
        }
        return [path.isEmpty ? "configuration" : path]
    }
}
