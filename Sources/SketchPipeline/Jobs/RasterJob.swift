import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// PNG images (e.g. TU-Berlin) → gray, resampled, one `.npy` array in input order, each row's
/// file path in `X.keys.csv` beside it (none for a stream), with the paths of undecodable files
/// quarantined. The engine reads the files: groups of them are decoded (``ImageBatchWork``) and
/// resampled (``RasterImageStage``) on `jobs` threads (``RecordStream/drive(_:jobs:maxInFlight:progress:consumedBytes:work:consume:)``)
/// and written in input order, so the output is the same for every job count.
package struct RasterJob {
    /// The image files, in output order.
    package var files: [String]
    /// Directory entries that could not be read (source errors, quarantined first).
    package var rejectedSources: [RejectedLine]
    /// Output `.npy` (written atomically; a stream such as `-` receives it when complete).
    package var outputPath: String
    /// Quarantine file (one rejected path a line, written when a file is rejected); nil: only
    /// counted and reported.
    package var quarantinePath: String?
    /// Output side (also of the empty array written when no image decodes).
    package var side: Int
    /// Whether to keep the images' own size instead of resampling (all images must share it).
    package var keepsSize: Bool
    /// Whether to write float32 pixel / 255 instead of uint8.
    package var float32: Bool
    /// Whether to print progress on stderr (the first rejections are printed either way).
    package var showsProgress: Bool
    /// Worker threads; the output bytes do not depend on it.
    package var jobs: Int
    /// Files per unit of parallel work at most (fewer for large rasters, `BatchSizing`).
    package var filesPerChunk = 8

    /// Creates a job.
    package init(
        files: [String], rejectedSources: [RejectedLine] = [], outputPath: String, quarantinePath: String?, side: Int, keepsSize: Bool,
        float32: Bool,
        showsProgress: Bool, jobs: Int
    ) {
        self.files = files
        self.rejectedSources = rejectedSources
        self.outputPath = outputPath
        self.quarantinePath = quarantinePath
        self.side = side
        self.keepsSize = keepsSize
        self.float32 = float32
        self.showsProgress = showsProgress
        self.jobs = jobs
    }

    /// Converts every file; returns the counts. Throws only for output failures.
    package func run() throws -> RecordCounts {
        let quarantine = QuarantineWriter(path: quarantinePath)
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showsProgress)
        let stage = RasterImageStage(resampler: keepsSize ? nil : BoxResampler(side: side), float32: float32)
        let work = ImageBatchWork(stage: stage, files: files.map { LabeledImageFile(path: $0, className: "", keyID: $0) })
        var writer: NPYWriter?
        let keys = try KeysCSVWriter.path(beside: outputPath).map { try KeysCSVWriter(path: $0, header: ["path"]) }
        var tally = RecordCounts()
        for source in rejectedSources { try tally.reject(source, into: quarantine) }
        // An image kept at its own size has at most PNGImage.maximumPixelCount pixels.
        let pixels = keepsSize ? PNGImage.maximumPixelCount : side * side
        let bytesPerImage = pixels * (float32 ? 4 : 1)
        let perGroup = BatchSizing.records(bytesPerRecord: bytesPerImage, maximum: max(1, filesPerChunk))
        let groups = stride(from: 0, to: files.count, by: perGroup).lazy.map { Array($0..<min($0 + perGroup, self.files.count)) }
        func write(_ image: RasterImageStage.Image) throws {
            let target = try writer ?? NPYWriter(path: outputPath, dtype: float32 ? .float32 : .uint8, itemShape: image.shape)
            writer = target
            guard target.itemShape == image.shape else {
                tally.written -= 1
                tally.rejected += 1
                try quarantine.add(
                    .file(
                        files[image.index],
                        reason: "size \(image.shape[1])x\(image.shape[0]) differs from the first image's "
                            + "\(target.itemShape[1])x\(target.itemShape[0]) (--keep-size needs one size)"))
                return
            }
            if float32 { try target.append(image.floats) } else { try target.append(image.bytes) }
            try keys?.append([files[image.index]])
        }
        // Decoded images and refused files, merged back into input order.
        func consume(_ outcome: BatchOutcome<[RasterImageStage.Image]>) throws {
            tally.add(outcome.counts)
            var images = outcome.output[...]
            for rejection in outcome.rejections {
                guard case let .file(index, path, reason) = rejection else { continue }
                while let image = images.first, image.index < index {
                    try write(image)
                    images.removeFirst()
                }
                try quarantine.add(.file(path, reason: reason))
            }
            for image in images { try write(image) }
        }
        try RecordStream.drive(
            groups, jobs: jobs, maxInFlight: BatchSizing.inFlight(2 * jobs + 2, batchBytes: perGroup * bytesPerImage),
            progress: progress, consumedBytes: { nil }, work: work.callAsFunction, consume: consume)
        if tally.commitsOutput {
            try writer?.commit()
            try keys?.commit()
        }
        try quarantine.finish()
        return tally
    }
}

/// The `raster` command's image stage: each decoded image resampled to the output side (kept at
/// its own size without a resampler) and its pixels kept as uint8 or float32 pixel / 255.
struct RasterImageStage: ImageStage {
    var resampler: BoxResampler?
    var float32: Bool

    /// One image on its way to the writer: its index among the files, shape and pixels.
    struct Image: Sendable {
        var index: Int
        var shape: [Int]
        var bytes: [UInt8]
        var floats: [Float]
    }

    func makeBatch(count: Int) -> Batch { Batch(stage: self) }

    struct Batch: ImageStageBatch {
        let stage: RasterImageStage
        private(set) var output: [Image] = []
        private(set) var seconds = StageSeconds()

        mutating func process(_ image: GrayImage, file: LabeledImageFile, index: Int) throws(StageRejection) {
            var t = MonotonicClock.now()
            let resampled = stage.resampler?.resample(image) ?? image
            output.append(
                Image(
                    index: index, shape: [resampled.height, resampled.width], bytes: stage.float32 ? [] : resampled.pixels,
                    floats: stage.float32 ? resampled.pixels.map { Float($0) / 255 } : []))
            seconds.encode += MonotonicClock.lap(&t)
        }
    }
}
