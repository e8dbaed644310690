import SketchDataset
import SketchFormats
import SketchIO

/// The run that made a dataset, as its `manifest.json` records it (`preprocess --from DIR`): the
/// pipeline file's text and name, the overrides given on the command line (inputs, categories,
/// file format, word: all in the recorded configuration), `--limit`, and the inputs' sizes and
/// SHA-256s. Running ``config`` again with ``pipelineFile`` and ``recordLimit`` over unchanged
/// inputs writes the same bytes.
package struct RecordedRun {
    /// The configuration of the recorded run (its output directory is the dataset's own until set).
    package var config: PipelineConfig
    /// The pipeline file as recorded (the manifest names it again).
    package var pipelineFile: String
    /// `--limit` of the recorded run.
    package var recordLimit: Int?
    /// The inputs as recorded.
    package var sources: [Manifest.SourceFileEntry]

    /// The run recorded in `directory`'s manifest; throws `PipelineError` when the manifest does
    /// not record what a rerun needs (the pipeline text: manifests before format 5 and datasets
    /// that are not a pipeline's) or its configuration does not follow from that text.
    package static func read(directory: String) throws -> RecordedRun {
        let manifestPath = "\(directory)/\(DatasetLayout.manifest)"
        let manifest = try Manifest.read(DatasetLayout.manifest, in: directory)
        guard let text = manifest.pipeline.text, let settings = manifest.settings else {
            throw PipelineError(
                .recordedRun,
                "--from \(TerminalText.escaped(directory)): \(manifestPath) does not record the pipeline's text"
                    + " (manifest format \(manifest.formatVersion); format 5 does, and only for datasets of a pipeline);"
                    + " run the pipeline with --pipeline FILE instead")
        }
        var config = try PipelineConfig.parse(text: text, file: manifest.pipeline.file)
        let recorded = manifest.pipeline.config
        config.source.inputs = recorded["source", "inputs"]?.strings ?? config.source.inputs
        config.filters.categories = recorded["filters", "categories"]?.strings ?? config.filters.categories
        if case let .string(format)? = recorded["source", "file_format"] { config.source.fileFormat = DrawingFileFormat(rawValue: format) }
        if case let .string(word)? = recorded["source", "word"] { config.source.word = word }
        guard config.json == recorded, config.fileSHA256 == settings.pipelineSHA256 else {
            throw PipelineError(
                .recordedRun,
                "--from \(TerminalText.escaped(directory)): the pipeline text \(manifestPath) records does not give its recorded"
                    + " configuration; the manifest was edited, so the run cannot be repeated from it")
        }
        return RecordedRun(
            config: config, pipelineFile: manifest.pipeline.file, recordLimit: settings.recordLimit, sources: manifest.sources)
    }

    /// Throws `PipelineError` naming the first input that differs between the recorded run and
    /// `current` (``PipelineRunner/measure(_:)``): one whose size or SHA-256 changed, one that
    /// is gone, or one the recorded run did not read.
    package func checkInputs(_ current: [Manifest.SourceFileEntry]) throws(PipelineError) {
        func name(_ entry: Manifest.SourceFileEntry) -> String {
            TerminalText.escaped(entry.path) + (entry.offset.map { " (bytes from \($0))" } ?? "")
        }
        let now = Dictionary(current.map { ("\($0.path)@\($0.offset ?? -1)", $0) }, uniquingKeysWith: { first, _ in first })
        for source in sources {
            guard let found = now["\(source.path)@\(source.offset ?? -1)"] else {
                throw PipelineError(
                    .recordedRun, "input \(name(source)) of the recorded run is gone or no longer read; nothing was rebuilt")
            }
            if found.bytes != source.bytes || found.sha256 != source.sha256 {
                throw PipelineError(
                    .recordedRun,
                    "input \(name(source)) changed since the recorded run: \(source.bytes) bytes, SHA-256 \(source.sha256)"
                        + " then; \(found.bytes) bytes, SHA-256 \(found.sha256) now; nothing was rebuilt")
            }
        }
        let recorded = Set(sources.map { "\($0.path)@\($0.offset ?? -1)" })
        if let extra = current.first(where: { !recorded.contains("\($0.path)@\($0.offset ?? -1)") }) {
            throw PipelineError(.recordedRun, "input \(name(extra)) was not read by the recorded run; nothing was rebuilt")
        }
    }
}

extension JSONValue {
    /// The value at the path of object keys, or nil.
    fileprivate subscript(_ keys: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in keys {
            guard case let .object(members)? = value else { return nil }
            value = members[key]
        }
        return value
    }

    /// The strings of an array of strings, or nil.
    fileprivate var strings: [String]? {
        guard case let .array(items) = self else { return nil }
        let strings = items.compactMap { item -> String? in
            if case let .string(text) = item { return text }
            return nil
        }
        return strings.count == items.count ? strings : nil
    }
}
