import SketchCore
import SketchIO
import SketchRaster

extension PipelineRunner {
    /// The PNG files of an `image-directory` source: every input root scanned with
    /// `LabeledImageDirectory` (class = directory name, split = enclosing train/val/test directory).
    func imageFiles() throws -> [LabeledImageFile] {
        try config.source.inputs.flatMap { root in
            do {
                return try LabeledImageDirectory.scan(root)
            } catch {
                throw ValidationFailure("\(pipelineFile): source.inputs: \(root) is not a readable directory of <class>/*.png")
            }
        }
    }

    /// Decodes, resamples and labels every image; a file that is not a valid PNG is reported,
    /// counted as rejected and its path written to the quarantine file. Images in a split
    /// directory keep that split; the others are split by the hash of their key (relative path).
    func collectImages(_ files: [LabeledImageFile]) throws -> Collected {
        guard case let .raster(options) = config.encode else {
            throw ValidationFailure("\(pipelineFile): an image-directory source needs encode.kind: raster")
        }
        var collected = Collected()
        let quarantine = try QuarantineWriter(path: "\(config.output.directory)/\(Self.quarantineName)")
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showProgress)
        let resampler = BoxResampler(side: options.stroke.side)
        var filter = RecordFilter(config.filters)
        for file in files {
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
