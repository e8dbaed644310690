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
                listing = try LabeledImageDirectory.scan(root)
            } catch {
                throw PipelineError("\(pipelineFile): \(inputsName): \(root) is not a readable directory of <class>/*.png (\(error))")
            }
            guard !listing.files.isEmpty || !listing.rejected.isEmpty else {
                throw PipelineError("\(pipelineFile): \(inputsName): no <class>/*.png images in \(root)" + svgHint(root))
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
        let files = FileManager.default
        let levels = [root] + ["train", "val", "test"].map { "\(root)/\($0)" }
        let holdsSVG = levels.contains { level in
            ((try? files.contentsOfDirectory(atPath: level)) ?? []).prefix(1000).contains { name in
                ((try? files.contentsOfDirectory(atPath: "\(level)/\(name)")) ?? []).prefix(1000).contains {
                    $0.lowercased().hasSuffix(".svg")
                }
            }
        }
        guard holdsSVG else { return "" }
        let directory = parentDirectory(of: pipelineFile)
        let siblings = ((try? files.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        let drawingPipelines = siblings.map { directory == "." ? $0 : "\(directory)/\($0)" }.filter { path in
            (try? PipelineConfig.load(path: path))?.source.kind == .quickdrawNDJSON
        }
        let named = drawingPipelines.isEmpty ? "a pipeline with source.kind: quickdraw-ndjson" : drawingPipelines.joined(separator: ", ")
        return "; it holds SVG sketches, which this image pipeline does not read: pipelines of drawings do (\(named))"
    }

    /// The map side for labelled PNG directories (one process): decodes, resamples and labels
    /// every image; a file that is not a valid PNG is reported, counted as rejected and its path
    /// written to the quarantine file, as is each directory entry the scan could not use (dangling
    /// link, link loop, non-UTF-8 name). Images in a split directory keep that split; the others
    /// are split by the hash of their key (relative path). With `selected` (a partition's share of
    /// the files, by index) only those files are read, each recorded as a chunk of its own.
    package func mapImages(
        _ listing: LabeledImageListing, selected: [Int]? = nil, rejectedEntries: Bool = true,
        runsDirectory: String, clock: StageClock
    ) throws -> MapOutput {
        guard case let .raster(options) = config.encode else {
            throw PipelineError("\(pipelineFile): an image-directory source needs encode.kind: raster")
        }
        var output = MapOutput()
        let quarantine = QuarantineWriter(path: "\(config.output.directory)/\(DatasetLayout.quarantine)", writesWhenEmpty: true)
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showProgress)
        let resampler = BoxResampler(side: options.stroke.side)
        let filter = RecordFilter(config.filters)
        let runs = try SortedRunWriter(directory: runsDirectory, budgetBytes: runBudgetBytes)
        for rejected in rejectedEntries ? listing.rejected : [] {
            output.rejectedSources += 1
            output.records.read += 1
            output.records.rejected += 1
            try quarantine.add(try recordedPaths.record(rejected))
        }
        let encoding = config.exampleEncoding
        let cpuStart = StageClock.cpuSeconds()
        var t = MonotonicClock.now()
        var seconds = StageSeconds()
        for ordinal in selected ?? Array(listing.files.indices) {
            let file = listing.files[ordinal]
            if selected != nil {
                let measured = try InputFile.measure(file.path)
                output.chunks[ordinal] = MapOutput.ChunkRecord(bytes: measured.bytes, sha256: measured.sha256, quarantined: 0)
            }
            output.records.read += 1
            progress.advance()
            if !config.filters.categories.isEmpty { output.seenWords.insert(file.className) }
            guard filter.wantsClass(file.className) else {
                output.records.filtered += 1
                continue
            }
            let image: GrayImage
            do {
                image = try PNGImage.readGray(path: file.path)
            } catch {
                output.records.rejected += 1
                output.chunks[ordinal]?.quarantined = 1
                try quarantine.add(.file(try recordedPaths.record(file.path), reason: error.reason))
                continue
            }
            seconds.parse += MonotonicClock.lap(&t)
            let payload = options.payload(resampler.resample(image).pixels)
            let body = try ExampleBody.make(
                payload: payload, keyID: file.keyID, word: file.className, facts: RecordFacts(), encoding: encoding,
                pngFilter: .paeth)
            seconds.encode += MonotonicClock.lap(&t)
            output.words.insert(file.className)
            let example = SortedExample(
                sortKey: SortKey.of(keyID: file.keyID, seed: config.output.seed), keyID: file.keyID,
                chunk: 0, ordinal: UInt64(ordinal), word: file.className,
                split: file.directorySplit.flatMap(SplitName.init(rawValue:)) ?? config.split.split(forKeyID: file.keyID),
                body: body)
            output.bucketCounts.add(word: example.word, sortKey: example.sortKey, split: example.split)
            try runs.add(example)
            output.records.written += 1
        }
        clock.add(seconds)
        progress.finish()
        try quarantine.finish()
        output.rejectedByReason = quarantine.countsByReason
        output.runs = try runs.finish()
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
                throw PipelineError("cannot read \(file.path): \(error.text)")
            }
            return InputChunk(path: file.path, offset: 0, bytes: Int(status.size), isRange: false)
        }
        return try runPartition(partition, chunks: chunks, pipeline: pipeline, clock: clock) { selected, runsDirectory in
            try mapImages(images, selected: selected, rejectedEntries: partition.index == 0, runsDirectory: runsDirectory, clock: clock)
        }
    }
}
