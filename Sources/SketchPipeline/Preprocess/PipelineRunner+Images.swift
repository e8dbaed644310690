import SketchCore
import SketchIO
import SketchFormats
import SketchDataset
import SketchRaster

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
                throw PipelineError("\(pipelineFile): source.inputs: \(root) is not a readable directory of <class>/*.png (\(error))")
            }
            guard !listing.files.isEmpty || !listing.rejected.isEmpty else {
                throw PipelineError("\(pipelineFile): source.inputs: no <class>/*.png images in \(root)")
            }
            all.files += listing.files
            all.rejected += listing.rejected
            all.skipped += listing.skipped
        }
        return all
    }

    /// The map side for labelled PNG directories (one process): decodes, resamples and labels
    /// every image; a file that is not a valid PNG is reported, counted as rejected and its path
    /// written to the quarantine file, as is each directory entry the scan could not use (dangling
    /// link, link loop, non-UTF-8 name). Images in a split directory keep that split; the others
    /// are split by the hash of their key (relative path).
    package func mapImages(_ listing: LabeledImageListing, runsDirectory: String, clock: StageClock) throws -> MapOutput {
        guard case let .raster(options) = config.encode else {
            throw PipelineError("\(pipelineFile): an image-directory source needs encode.kind: raster")
        }
        var output = MapOutput()
        let quarantine = try QuarantineWriter(path: "\(config.output.directory)/\(DatasetLayout.quarantine)")
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showProgress)
        let resampler = BoxResampler(side: options.stroke.side)
        let filter = RecordFilter(config.filters)
        let runs = try SortedRunWriter(directory: runsDirectory, budgetBytes: runBudgetBytes)
        for rejected in listing.rejected {
            output.read += 1
            output.rejected += 1
            try quarantine.add(try recordedPaths.record(rejected))
        }
        var t = MonotonicClock.now()
        var seconds = StageSeconds()
        for (ordinal, file) in listing.files.enumerated() {
            output.read += 1
            progress.advance()
            if !config.filters.categories.isEmpty { output.seenWords.insert(file.className) }
            guard filter.wantsClass(file.className) else {
                output.filtered += 1
                continue
            }
            let image: GrayImage
            do {
                image = try PNGImage.readGray(path: file.path)
            } catch {
                output.rejected += 1
                try quarantine.add(.file(try recordedPaths.record(file.path), reason: error.reason))
                continue
            }
            seconds.parse += MonotonicClock.lap(&t)
            let payload = options.payload(resampler.resample(image).pixels)
            seconds.encode += MonotonicClock.lap(&t)
            output.words.insert(file.className)
            try runs.add(SortedExample(sortKey: SortKey.of(keyID: file.keyID, seed: config.output.seed), keyID: file.keyID,
                                       chunk: 0, ordinal: UInt64(ordinal), word: file.className,
                                       split: file.directorySplit.flatMap(SplitName.init(rawValue:)), payload: payload))
        }
        clock.add(seconds)
        progress.finish()
        try quarantine.finish()
        (output.runs, output.memory) = runs.finishInMemory()
        return output
    }
}
