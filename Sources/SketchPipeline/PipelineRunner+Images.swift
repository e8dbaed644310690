import SketchCore
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
        DirectoryListing.printWarnings(all.skipped, tool: config.name)
        return all
    }

    /// Decodes, resamples and labels every image; a file that is not a valid PNG is reported,
    /// counted as rejected and its path written to the quarantine file, as is each directory entry
    /// the scan could not use (dangling link, link loop, non-UTF-8 name). Images in a split
    /// directory keep that split; the others are split by the hash of their key (relative path).
    package func collectImages(_ listing: LabeledImageListing) throws -> Collected {
        guard case let .raster(options) = config.encode else {
            throw PipelineError("\(pipelineFile): an image-directory source needs encode.kind: raster")
        }
        var collected = Collected()
        let quarantine = try QuarantineWriter(path: "\(config.output.directory)/\(Self.quarantineName)")
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showProgress)
        let resampler = BoxResampler(side: options.stroke.side)
        var filter = RecordFilter(config.filters)
        for rejected in listing.rejected {
            collected.read += 1
            collected.rejected += 1
            try quarantine.add(rejected)
        }
        for file in listing.files {
            collected.read += 1
            progress.advance()
            guard filter.wantsClass(file.className) else {
                collected.filtered += 1
                continue
            }
            let image: GrayImage
            do {
                image = try PNGImage.readGray(path: file.path)
            } catch {
                collected.rejected += 1
                try quarantine.add(.file(file.path, reason: error.reason))
                continue
            }
            filter.keep(file.className)
            collected.examples.append(PendingExample(
                keyID: file.keyID, word: file.className, payload: options.payload(resampler.resample(image).pixels),
                split: file.directorySplit.flatMap(SplitName.init(rawValue:))))
        }
        progress.finish()
        try quarantine.finish()
        return collected
    }
}
