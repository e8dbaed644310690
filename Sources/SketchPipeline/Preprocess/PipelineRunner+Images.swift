import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster
import SystemPackage

extension PipelineRunner {
    /// The PNG files of an `image-directory` source: every input root scanned with
    /// `LabeledImageDirectory` (class = directory name, split = enclosing train/val/test directory);
    /// a root without any image is an error, as a directory without *.ndjson files is for drawings.
    package func imageFiles() throws -> LabeledImageListing {
        var all = LabeledImageListing()
        for root in config.source.inputs {
            let listing: LabeledImageListing
            do {
                listing = try LabeledImageDirectory.scan(root, threads: jobs)
            } catch {
                throw PipelineError(
                    .input, "\(pipelineFile): \(inputsName): \(root) is not a readable directory of <class>/*.png (\(error))")
            }
            guard !listing.files.isEmpty || !listing.rejected.isEmpty else {
                throw PipelineError(.input, "\(pipelineFile): \(inputsName): no <class>/*.png images in \(root)" + svgHint(root))
            }
            all.files += listing.files
            all.rejected += listing.rejected
            all.skipped += listing.skipped
        }
        return all
    }

    /// For an image root without PNGs that holds SVG sketches (`<class>/*.svg`, also under a split
    /// directory): the pipelines beside this one that read drawings, SVG among them, e.g.
    /// `; it holds SVG sketches, which pipelines of drawings read: Pipelines/quickdraw-rnn.yaml, …`.
    private func svgHint(_ root: String) -> String {
        let levels = [root] + ["train", "val", "test"].map { "\(root)/\($0)" }
        let holdsSVG = levels.contains { level in
            FileSystem.entryNames(of: level).prefix(1000).contains { name in
                FileSystem.entryNames(of: "\(level)/\(name)").prefix(1000).contains { $0.lowercased().hasSuffix(".svg") }
            }
        }
        guard holdsSVG else { return "" }
        let directory = parentDirectory(of: (try? ShippedPipelines.ofThisProcess.file(for: pipelineFile)) ?? pipelineFile)
        let siblings = FileSystem.entryNames(of: directory).filter { $0.hasSuffix(".yaml") }.sorted()
        let drawingPipelines = siblings.map { directory == "." ? $0 : "\(directory)/\($0)" }.filter { path in
            (try? PipelineConfig.load(path: path))?.source.kind == .quickdrawNDJSON
        }
        let named = drawingPipelines.isEmpty ? "a pipeline with source.kind: quickdraw-ndjson" : drawingPipelines.joined(separator: ", ")
        return "; it holds SVG sketches, which this image pipeline does not read: pipelines of drawings do (\(named))"
    }

    /// The map side for labelled PNG directories: the engine
    /// (``RecordStream/drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``) over the image files on
    /// ``jobs`` threads (``ImageBatchWork``: read, decode, filter by class; ``ImageExampleStage``:
    /// resample and label), into the sorted-run sink (``MapSink``). A file that is not a valid PNG
    /// is reported, counted as rejected and its path written to the quarantine file, as is each
    /// directory entry the scan could not use (dangling link, link loop, non-UTF-8 name). Images in
    /// a split directory keep that split; the others are split by the hash of their key (relative
    /// path). With `selected` (a partition's share of the files, by index) only those files are
    /// read, each recorded as a chunk of its own. With `measuresFiles` (and with `selected`) each
    /// file's size and SHA-256 are taken from the bytes the map reads (``MapOutput/sourceEntries(_:recording:)``).
    package func mapImageFiles(
        _ listing: LabeledImageListing, selected: [Int]? = nil, measuresFiles: Bool = false, rejectedEntries: Bool = true,
        runsDirectory: String, clock: StageClock
    ) throws -> MapOutput {
        guard case let .raster(options) = config.encode else {
            throw PipelineError(.configuration, "\(pipelineFile): an image-directory source needs encode.kind: raster")
        }
        var output = MapOutput()
        let quarantine = QuarantineWriter(path: "\(config.output.directory)/\(DatasetLayout.quarantine)", writesWhenEmpty: true)
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showProgress)
        let runs = try SortedRunWriter(directory: runsDirectory, budgetBytes: runBudgetBytes, writesInBackground: jobs > 1)
        for rejected in rejectedEntries ? listing.rejected : [] {
            output.rejectedSources += 1
            output.records.read += 1
            output.records.rejected += 1
            try quarantine.add(try recordedPaths.record(rejected))
        }
        let cpuStart = StageClock.cpuSeconds()
        let callingThreadStart = StageClock.cpuSeconds(thread: true)
        let stage = ImageExampleStage(
            resampler: BoxResampler(side: options.stroke.side), options: options, encoding: config.exampleEncoding,
            seed: config.output.seed, split: config.split)
        var work = ImageBatchWork(stage: stage, files: listing.files)
        work.filter = RecordFilter(config.filters)
        work.tracksWords = !config.filters.categories.isEmpty
        work.measuresFiles = measuresFiles || selected != nil
        let sink = MapSink(
            runs: runs, quarantine: quarantine, checkpoints: nil, clock: clock,
            place: { rejection, _ in
                guard case let .file(_, path, reason) = rejection else { preconditionFailure("an image batch rejects whole files") }
                return .file(try recordedPaths.record(path), reason: reason)
            })
        let files = selected ?? Array(listing.files.indices)
        let bytesPerImage = options.stroke.side * options.stroke.side * (options.dtype == .float32 ? 4 : 1)
        let perBatch = BatchSizing.records(bytesPerRecord: bytesPerImage, maximum: 16)
        let batches = stride(from: 0, to: files.count, by: perBatch).lazy.map { Array(files[$0..<min($0 + perBatch, files.count)]) }
        try RecordStream.drive(
            batches, jobs: jobs, maxInFlight: BatchSizing.inFlight(2 * jobs, batchBytes: perBatch * bytesPerImage),
            progress: progress, consumedBytes: { nil }, work: work.callAsFunction, consume: sink.consume)
        output.absorb(try sink.finish())
        clock.addWall("map_serial", StageClock.cpuSeconds(thread: true) - callingThreadStart)
        try quarantine.finish()
        output.rejectedByReason = quarantine.countsByReason
        let spillStart = MonotonicClock.now()
        output.runs = try sink.finishRuns()
        clock.addWall("sort_spill", MonotonicClock.now() - spillStart)
        clock.addWall("map", StageClock.cpuSeconds() - cpuStart)
        return output
    }

    /// `--partition i/n` of an image-directory source: every file is a chunk of its own (in the
    /// listing's sorted order), dealt like drawing chunks; partition 0 also quarantines the
    /// listing's unusable entries.
    func runImagePartition(
        _ partition: Partition, images: LabeledImageListing, pipeline: Manifest.PipelineInfo,
        clock: StageClock
    ) throws -> PipelineOutcome {
        let chunks = try images.files.map { file -> InputChunk in
            let status: FileSystem.Status
            do throws(Errno) {
                status = try FileSystem.status(file.path)
            } catch {
                throw PipelineError(.input, "cannot read \(file.path): \(error.text)")
            }
            return InputChunk(path: file.path, offset: 0, bytes: Int(status.size), isRange: false)
        }
        return try runPartition(partition, chunks: chunks, pipeline: pipeline, clock: clock) { selected, runsDirectory in
            try mapImageFiles(images, selected: selected, rejectedEntries: partition.index == 0, runsDirectory: runsDirectory, clock: clock)
        }
    }
}
