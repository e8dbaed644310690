import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// What the map side of a run produced: sorted runs, the examples counted per class, sort-key
/// bucket and split, the tally, the class words seen, and per chunk what was read of it.
package struct MapOutput: Sendable {
    package var runs: [String] = []
    package var bucketCounts = BucketCounts()
    /// Records read, written to the runs, filtered and rejected, and the damaged or unreadable
    /// inputs (the one count type; `read = written + filtered + rejected`).
    package var records = RecordCounts()
    /// Rejections grouped by reason kind (`QuarantineWriter.countsByReason`).
    package var rejectedByReason: [String: Int] = [:]
    package var words = ClassWords()
    /// Per chunk index: stored bytes read, their SHA-256, and quarantined lines.
    package var chunks: [Int: ChunkRecord] = [:]
    /// Quarantined directory entries that are not chunks (dangling links, unreadable names…).
    package var rejectedSources = 0
    /// Words and country codes of every record read, before filters (collected only while a
    /// category or country filter is set, for ``FilterCheck``).
    package var seenWords = ClassWords()
    package var seenCountries: Set<String> = []
    /// Every chunk of the run (not only those this process read), to locate examples by chunk.
    package var chunkList: [InputChunk] = []
    /// Chunks reused from a dead run's checkpoints instead of mapped (``MapResume``).
    package var reusedChunks = 0

    package struct ChunkRecord: Codable, Equatable, Sendable {
        package var bytes: Int
        package var sha256: String
        package var quarantined: Int
    }

    /// The manifest's source list: every chunk that could be read, in chunk order (an unreadable
    /// input is in the quarantine instead).
    package func sourceEntries(_ all: [InputChunk], recording paths: RecordedPaths) throws -> [Manifest.SourceFileEntry] {
        try all.indices.compactMap { index in
            guard let record = chunks[index], !record.sha256.isEmpty else { return nil }
            let chunk = all[index]
            return Manifest.SourceFileEntry(
                path: try paths.record(chunk.path), offset: chunk.isRange ? chunk.offset : nil,
                bytes: record.bytes, sha256: record.sha256)
        }
    }
}

extension PipelineRunner {
    /// The map side for drawings: the engine (``RecordStream/drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``)
    /// over the `selected` chunks on ``jobs`` threads (``DrawingBatchWork``: parse, filter, then
    /// the encode stage ``ExampleStage`` simplifies and encodes each record into its final
    /// label-free bytes), into the sorted-run sink (``MapSink``), which quarantines bad lines in
    /// chunk order and writes the examples into sorted runs under `runsDirectory`. Without
    /// `hashing` the chunks' checksums are not computed (the caller measured them up front:
    /// `measured`). With `resume`, each chunk's runs, quarantined lines and ``MapCheckpoint`` are
    /// kept apart in `runsDirectory`, and chunks a dead run finished (checked) are reused instead
    /// of mapped.
    package func mapDrawings(
        chunks: [InputChunk], selected: [Int], rejectedSources: [RejectedLine],
        quarantinePath: String, runsDirectory: String,
        hashing: Bool = true, measured: [Manifest.SourceFileEntry]? = nil, resume: MapResume? = nil, clock: StageClock
    ) throws -> MapOutput {
        var output = MapOutput()
        output.chunkList = chunks
        let quarantine = QuarantineWriter(path: quarantinePath, writesWhenEmpty: true)
        for rejected in rejectedSources {
            output.records.sourceErrors += 1
            output.rejectedSources += 1
            try quarantine.add(.sourceError(try recordedPaths.record(rejected.location.file), byteOffset: 0, reason: rejected.reason))
        }
        // Chunks a dead run finished, reused after their checks.
        var reused: [Int: (checkpoint: MapCheckpoint, directory: String)] = [:]
        let keys = try resume.map { resume in
            try chunks.indices.map { resume.key(chunk: chunks[$0], index: $0, recordedPath: try recordedPaths.record(chunks[$0].path)) }
        }
        if let resume, let keys {
            for index in selected {
                if let found = resume.reusable(key: keys[index], chunk: chunks[index], digest: measured?[index].sha256) {
                    reused[index] = found
                    output.absorb(try MapOutput(reusing: found.checkpoint, in: found.directory))
                }
            }
            output.reusedChunks = reused.count
        }
        let toMap = selected.filter { reused[$0] == nil }
        let totalBytes = toMap.reduce(0) { $0 + (chunks[$1].bytes ?? 0) }
        let progress = ProgressReporter(
            unit: "drawings", totalBytes: toMap.allSatisfy { chunks[$0].bytes != nil } ? totalBytes : nil,
            enabled: showProgress)
        let runs = try SortedRunWriter(
            directory: runsDirectory, budgetBytes: runBudgetBytes, measuresRuns: keys != nil, writesInBackground: jobs > 1)
        let batches = InputBatches(
            sources: chunks.map { InputBatches.Source(path: $0.path, range: $0.range, format: $0.format, word: $0.word) },
            selected: toMap,
            hashing: hashing, linesPerBatch: config.encode.linesPerBatch, recordLimit: recordLimit)
        let checkpoints = keys.map { keys in ChunkCheckpointWriter(directory: runsDirectory) { keys[$0] } }
        var lineBase: [Int: Int] = [:]
        let sink = MapSink(
            runs: runs, quarantine: quarantine, checkpoints: checkpoints, clock: clock,
            place: { rejection, index in
                let chunk = chunks[index]
                switch rejection {
                case let .record(lineInChunk, reason, bytes):
                    if lineBase[index] == nil { lineBase[index] = chunk.linesBefore() }
                    let line = lineInChunk == 0 ? 0 : lineBase[index]! + lineInChunk
                    return RejectedLine(location: SourceLocation(file: chunk.path, line: line), reason: reason, bytes: bytes)
                case let .sourceError(byteOffset, reason):
                    return .sourceError(try recordedPaths.record(chunk.path), byteOffset: byteOffset, reason: reason)
                case let .file(_, path, reason):
                    return .file(try recordedPaths.record(path), reason: reason)
                }
            },
            digest: { chunk in hashing ? batches.digests[chunk] : measured.map { ($0[chunk].bytes, $0[chunk].sha256) } })
        let mapStart = MonotonicClock.now()
        let cpuStart = StageClock.cpuSeconds()
        let callingThreadStart = StageClock.cpuSeconds(thread: true)
        func drive<Stage: RecordStage>(_ stage: Stage) throws where Stage.Batch.Output == MappedExamples {
            var work = DrawingBatchWork(stage: stage, chunks: chunks.map { ($0.path, $0.format) })
            work.filter = RecordFilter(config.filters)
            work.tracksWords = !config.filters.categories.isEmpty
            work.tracksCountries = !config.filters.countries.isEmpty
            try RecordStream.drive(
                batches, jobs: jobs, maxInFlight: 2 * jobs, progress: progress, consumedBytes: { batches.consumedBytes },
                work: work.callAsFunction,
                consume: sink.consume)
        }
        // The encode stage of the commands that `encode.kind` names, inside an example stage.
        let (inputFormat, simplification) = (config.source.format, config.simplification)
        func example<Inner: RecordStage>(
            _ inner: Inner, payload: @escaping @Sendable (Inner.Batch.Encoded) -> TensorPayload
        ) -> ExampleStage<Inner> {
            ExampleStage(inner: inner, payload: payload, encoding: config.exampleEncoding, seed: config.output.seed, split: config.split)
        }
        switch config.encode {
        case let .strokes(options):
            try drive(
                example(StrokeTensorStage(tensor: options, inputFormat: inputFormat, simplification: simplification)) {
                    .float32($0.values, shape: [$0.rows, StrokeTensorEncoder.columns])
                })
        case let .raster(options) where !options.timeChannels.isEmpty:
            try drive(example(TimeChannelStage(render: options.stroke, channels: options.timeChannels), payload: options.payload))
        case let .raster(options):
            try drive(
                example(
                    BitmapRenderStage(render: options.stroke, inputFormat: inputFormat, simplification: simplification),
                    payload: options.payload))
        case let .stroke3(epsilon, elementType):
            let float64Chunks = Set(toMap.filter { chunks[$0].format == .stroke3 && Stroke3NPZ.isFloat64(path: chunks[$0].path) })
            try drive(
                example(
                    Stroke3Stage(
                        epsilon: epsilon, elementType: elementType, inputFormat: inputFormat, simplification: simplification,
                        float64Chunks: float64Chunks)
                ) { $0 })
        }
        output.absorb(try sink.finish())
        clock.addWall("map_wall", MonotonicClock.now() - mapStart)
        clock.addWall("map_serial", StageClock.cpuSeconds(thread: true) - callingThreadStart)
        let spillStart = MonotonicClock.now()
        // With checkpoints every run was already handed over chunk by chunk; this waits for the
        // last chunk's files, which the quarantine below reads.
        let remaining = try sink.finishRuns()
        if checkpoints == nil { output.runs += remaining }
        clock.addWall("sort_spill", MonotonicClock.now() - spillStart)
        if checkpoints != nil {
            // Each chunk's quarantined lines, in chunk order, reused or mapped now.
            for index in selected {
                let directory = reused[index]?.directory ?? runsDirectory
                try copyQuarantine(from: "\(directory)/\(DatasetLayout.chunkQuarantine(index))", into: quarantine)
            }
        }
        try quarantine.finish()
        output.rejectedByReason = quarantine.countsByReason
        try batches.requireAnInputOpened(count: toMap.count)
        clock.addWall("map", StageClock.cpuSeconds() - cpuStart)
        for index in toMap {
            let digest = batches.digests[index] ?? (0, "")
            output.chunks[index] = MapOutput.ChunkRecord(
                bytes: digest.bytes, sha256: digest.sha256, quarantined: sink.quarantined[index] ?? 0)
        }
        return output
    }

    /// Appends the quarantine file `path` (absent: nothing quarantined) to `quarantine`, 1 MiB at a time.
    private func copyQuarantine(from path: String, into quarantine: QuarantineWriter) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            try quarantine.addVerbatim([UInt8](piece))
        }
    }

    /// The split a record brings along: a record decoded from a stroke-3 input (its chunk's format,
    /// known from the file's content, never from the record) keeps its file's split, which the
    /// decoder wrote into its key_id `<file>#<split>#<index>`; every other record gets the split
    /// rule's, whatever its key_id looks like.
    static func ownSplit(of record: SketchRecord, isStroke3Input: Bool) -> SplitName? {
        guard isStroke3Input, let place = Stroke3Split.place(ofKey: record.keyID) else { return nil }
        switch place.split {
        case .train: return .train
        case .valid: return .val
        case .test: return .test
        }
    }
}
