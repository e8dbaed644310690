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

/// What the workers make of one batch of lines.
private struct MappedBatch: Sendable {
    enum Outcome: Sendable {
        case example(SortedExample)
        case filtered
        case rejected(lineInChunk: Int, reason: String, bytes: [UInt8])
        case sourceError(byteOffset: Int, reason: String)
    }
    var chunk: Int
    var outcomes: [Outcome] = []
    var seconds = StageSeconds()
    var seenWords = ClassWords()
    var seenCountries: Set<String> = []
}

extension PipelineRunner {
    /// The map side for drawings: reads the `selected` chunks on ``jobs`` threads (parse, filter,
    /// simplify, encode per batch of lines), quarantines bad lines in chunk order, and writes the
    /// examples, encoded into their final label-free bytes (``ExampleBody``), into sorted runs under
    /// `runsDirectory`. Without `hashing` the chunks' checksums are not computed (the caller
    /// measured them up front: `measured`). With `resume`, each chunk's runs, quarantined lines
    /// and ``MapCheckpoint`` are kept apart in `runsDirectory`, and chunks a dead run finished
    /// (checked) are reused instead of mapped.
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
        let runs = try SortedRunWriter(directory: runsDirectory, budgetBytes: runBudgetBytes, measuresRuns: keys != nil)
        let batches = InputBatches(
            sources: chunks.map { InputBatches.Source(path: $0.path, range: $0.range, format: $0.format, word: $0.word) },
            selected: toMap,
            hashing: hashing, linesPerBatch: config.encode.linesPerBatch, recordLimit: recordLimit)
        let transform = batchTransform(
            chunkFormats: chunks.map(\.format),
            float64Chunks: Set(toMap.filter { chunks[$0].format == .stroke3 && Stroke3NPZ.isFloat64(path: chunks[$0].path) }))
        let checkpoints = keys.map { keys in ChunkCheckpointWriter(directory: runsDirectory) { keys[$0] } }
        var quarantined: [Int: Int] = [:]
        var lineBase: [Int: Int] = [:]
        // The chunk being mapped collects into `current` (one chunk with resume, else the whole map).
        var current = MapOutput()
        func closeChunk() throws {
            guard let checkpoints, let chunk = checkpoints.chunk else { return }
            let digest = hashing ? batches.digests[chunk] : measured.map { ($0[chunk].bytes, $0[chunk].sha256) }
            checkpoints.current = current
            output.absorb(try checkpoints.close(runs: try runs.closeChunk(), digest: digest, quarantined: quarantined[chunk] ?? 0))
            current = MapOutput()
        }
        func reject(_ line: RejectedLine) throws {
            if let checkpoints {
                try checkpoints.quarantine(line.bytes)
                quarantine.tally(line)
            } else {
                try quarantine.add(line)
            }
        }
        let mapStart = MonotonicClock.now()
        let cpuStart = StageClock.cpuSeconds()
        try OrderedParallelMap(jobs: jobs, transform: transform).run(batches) { batch in
            if let checkpoints, checkpoints.chunk != batch.chunk {
                try closeChunk()
                checkpoints.begin(batch.chunk)
            }
            clock.add(batch.seconds)
            current.seenWords.formUnion(batch.seenWords)
            current.seenCountries.formUnion(batch.seenCountries)
            for outcome in batch.outcomes {
                if case .sourceError = outcome {} else { current.records.read += 1 }
                switch outcome {
                case .example(let example):
                    current.records.written += 1
                    current.words.insert(example.word)
                    current.bucketCounts.add(word: example.word, sortKey: example.sortKey, split: example.split)
                    try runs.add(example)
                case .filtered:
                    current.records.filtered += 1
                case let .rejected(lineInChunk, reason, bytes):
                    current.records.rejected += 1
                    quarantined[batch.chunk, default: 0] += 1
                    let chunk = chunks[batch.chunk]
                    if lineBase[batch.chunk] == nil { lineBase[batch.chunk] = chunk.linesBefore() }
                    let line = lineInChunk == 0 ? 0 : lineBase[batch.chunk]! + lineInChunk
                    try reject(RejectedLine(location: SourceLocation(file: chunk.path, line: line), reason: reason, bytes: bytes))
                case let .sourceError(byteOffset, reason):
                    current.records.sourceErrors += 1
                    quarantined[batch.chunk, default: 0] += 1
                    try reject(.sourceError(try recordedPaths.record(chunks[batch.chunk].path), byteOffset: byteOffset, reason: reason))
                }
            }
            progress.advance(by: batch.outcomes.count)
            progress.update(bytesConsumed: batches.consumedBytes)
            TestStopPoint.map.reached()
        }
        try closeChunk()
        output.absorb(current)
        clock.addWall("map_wall", MonotonicClock.now() - mapStart)
        progress.finish()
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
        let spillStart = MonotonicClock.now()
        // With checkpoints every run was already handed over chunk by chunk.
        let remaining = try runs.finish()
        if checkpoints == nil { output.runs += remaining }
        clock.addWall("sort_spill", MonotonicClock.now() - spillStart)
        clock.addWall("map", StageClock.cpuSeconds() - cpuStart)
        for index in toMap {
            let digest = batches.digests[index] ?? (0, "")
            output.chunks[index] = MapOutput.ChunkRecord(bytes: digest.bytes, sha256: digest.sha256, quarantined: quarantined[index] ?? 0)
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

    /// The per-batch work, safe to run on any thread: each call has its own parser, simplifier
    /// and encoder. `chunkFormats` holds each chunk's file format (what `source.format` asks of
    /// its records, and whether they bring their stroke-3 split). Records of the chunks
    /// `float64Chunks` (float64 stroke-3 files) keep float64 stroke-3 rows unless the pipeline asks
    /// for int16.
    private func batchTransform(
        chunkFormats: [DrawingFileFormat], float64Chunks: Set<Int>
    ) -> @Sendable (RawLineBatch) -> MappedBatch {
        let filter = RecordFilter(config.filters)
        let simplification = config.simplification
        let format = config.source.format
        let encodeStage = SendableEncodeStage(config.encode)
        let drawsRawStrokes: Bool
        if case let .raster(options) = config.encode { drawsRawStrokes = !options.timeChannels.isEmpty } else { drawsRawStrokes = false }
        let seed = config.output.seed
        let split = config.split
        let encoding = config.exampleEncoding
        let tracksWords = !config.filters.categories.isEmpty
        let tracksCountries = !config.filters.countries.isEmpty
        return { batch in
            var mapped = MappedBatch(chunk: batch.chunk)
            let fileFormat = chunkFormats[batch.chunk]
            let isStroke3Input = fileFormat == .stroke3
            mapped.outcomes.reserveCapacity(batch.entries.count)
            var decoder = RecordBatchDecoder()
            var simplifier = Simplifier(options: simplification)
            let encode = encodeStage.makeEncoder()
            let isFloat64Input = float64Chunks.contains(batch.chunk)
            // One fragment encoder per batch of lines, reused for every example (formats that deflate bodies: sketch-rnn `.npz`).
            let fragments: DeflateFragmentEncoder?
            fragments = encoding.format.entry.deflatesBodies ? try? DeflateFragmentEncoder() : nil
            var t = MonotonicClock.now()
            decoder.decode(batch) { entry, decoded, _ in
                defer { t = MonotonicClock.now() }
                switch decoded {
                case let .record(record, line):
                    mapped.seconds.parse += MonotonicClock.lap(&t)
                    if tracksWords { mapped.seenWords.insert(record.word) }
                    if tracksCountries { mapped.seenCountries.insert(record.countryCode) }
                    guard filter.accepts(record) else {
                        mapped.outcomes.append(.filtered)
                        return true
                    }
                    let payload: TensorPayload
                    do throws(DrawingLimitError) {
                        // Over a bound of its processing (e.g. resampling), or an encoding it cannot fit.
                        var prepared = record
                        // Time-encoding rasters draw the raw strokes themselves (aligned and scaled).
                        if !drawsRawStrokes { prepared.drawing = try format.prepare(record, readAs: fileFormat, with: &simplifier) }
                        mapped.seconds.simplify += MonotonicClock.lap(&t)
                        payload = try encode(prepared, isFloat64Input ? line.stroke3Deltas : nil, isFloat64Input)
                    } catch {
                        mapped.outcomes.append(.rejected(lineInChunk: entry.lineInChunk, reason: error.reason, bytes: Array(line)))
                        return true
                    }
                    let body: ExampleBody
                    do {
                        body = try ExampleBody.make(
                            payload: payload, keyID: record.keyID, word: record.word,
                            facts: RecordFacts(
                                countryCode: record.countryCode, recognized: record.recognized,
                                timestamp: record.timestamp),
                            encoding: encoding, fragments: fragments)
                    } catch {
                        mapped.outcomes.append(.rejected(lineInChunk: entry.lineInChunk, reason: "\(error)", bytes: Array(line)))
                        return true
                    }
                    mapped.seconds.encode += MonotonicClock.lap(&t)
                    mapped.outcomes.append(
                        .example(
                            SortedExample(
                                sortKey: SortKey.of(keyID: record.keyID, seed: seed), keyID: record.keyID, chunk: UInt32(batch.chunk),
                                ordinal: UInt64(entry.lineInChunk), word: record.word,
                                split: Self.ownSplit(of: record, isStroke3Input: isStroke3Input) ?? split.split(forKeyID: record.keyID),
                                body: body)))
                case let .rejected(reason, bytes):
                    mapped.seconds.parse += MonotonicClock.lap(&t)
                    mapped.outcomes.append(.rejected(lineInChunk: entry.lineInChunk, reason: reason, bytes: Array(bytes)))
                case let .sourceError(byteOffset, reason):
                    mapped.outcomes.append(.sourceError(byteOffset: byteOffset, reason: reason))
                }
                return true
            }
            return mapped
        }
    }
}

/// The encode stage as worker threads use it; each worker makes its own encoder (a raster encoder
/// owns a cairo surface).
private struct SendableEncodeStage: Sendable {
    let stage: EncodeStage
    init(_ stage: EncodeStage) { self.stage = stage }

    /// The encoder of a record whose drawing is prepared (simplified when raw), the exact deltas
    /// its format kept beside it (`RecordLine.stroke3Deltas`), and whether it was read from
    /// float64 stroke-3 input; it throws for a drawing the encoding cannot hold
    /// (int16 stroke-3 beyond int16 once positions are rounded), which the map side quarantines.
    func makeEncoder() -> (SketchRecord, [Double]?, Bool) throws(DrawingLimitError) -> TensorPayload {
        switch stage {
        case let .strokes(options):
            return { record, _, _ in
                let tensor = StrokeTensorEncoder.encode(record.drawing, options: options)
                return .float32(tensor.values, shape: [tensor.rows, StrokeTensorEncoder.columns])
            }
        case let .raster(options) where !options.timeChannels.isEmpty:
            let renderer = TimeChannelRenderer(options: options.stroke, channels: options.timeChannels)
            return { record, _, _ throws(DrawingLimitError) in options.payload(try renderer.render(record.drawing)) }
        case let .raster(options):
            let renderer = StrokeRenderer(options: options.stroke)
            return { record, _, _ throws(DrawingLimitError) in options.payload(try renderer.render(record.drawing)) }
        case let .stroke3(epsilon, elementType):
            return { record, exactDeltas, isFloat64Input throws(DrawingLimitError) in
                var reduced = record
                if let epsilon { reduced.drawing = RamerDouglasPeucker(epsilon: epsilon).reduce(record.drawing) }
                if isFloat64Input && elementType == nil {
                    let array = Stroke3.array(of: reduced.drawing, exactDeltas: exactDeltas)
                    return .float64(array.values, shape: [array.rows, 3])
                }
                do throws(FormatError) {
                    let array = try Stroke3.int16Array(of: reduced.drawing)
                    return .float32(array.values.map(Float.init), shape: [array.rows, 3])
                } catch {
                    throw DrawingLimitError(error.reason)
                }
            }
        }
    }
}
