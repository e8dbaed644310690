import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// PNG images (e.g. TU-Berlin) → gray, resampled, one `.npy` array in input order, each row's
/// file path in `X.keys.csv` beside it (none for a stream), with the paths of undecodable files
/// quarantined. Files are decoded and resampled in groups on `jobs`
/// threads (`OrderedParallelMap`) and written in input order, so the output is the same for every
/// job count.
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

    /// One decoded image on its way to the writer, or why it was rejected.
    private struct Decoded: Sendable {
        var path: String
        var shape: [Int]
        var bytes: [UInt8]
        var floats: [Float]
        var failure: String?
    }

    /// Converts every file; returns the counts. Throws only for output failures.
    package func run() throws -> RecordCounts {
        let quarantine = QuarantineWriter(path: quarantinePath)
        let progress = ProgressReporter(unit: "images", totalBytes: nil, enabled: showsProgress)
        let resampler = keepsSize ? nil : BoxResampler(side: side)
        let float32 = float32
        let map = OrderedParallelMap(jobs: jobs, maxInFlight: 2 * jobs + 2) { (paths: ArraySlice<String>) in
            paths.map { path -> Decoded in
                do throws(FormatError) {
                    let decoded = try PNGImage.readGray(path: path)
                    let image = resampler?.resample(decoded) ?? decoded
                    return Decoded(
                        path: path, shape: [image.height, image.width],
                        bytes: float32 ? [] : image.pixels,
                        floats: float32 ? image.pixels.map { Float($0) / 255 } : [], failure: nil)
                } catch {
                    return Decoded(path: path, shape: [], bytes: [], floats: [], failure: error.reason)
                }
            }
        }
        var writer: NPYWriter?
        let keys = try KeysCSVWriter.path(beside: outputPath).map { try KeysCSVWriter(path: $0, header: ["path"]) }
        var tally = RecordCounts()
        for source in rejectedSources { try tally.reject(source, into: quarantine) }
        // An image kept at its own size has at most PNGImage.maximumPixelCount pixels.
        let pixels = keepsSize ? PNGImage.maximumPixelCount : side * side
        let perGroup = BatchSizing.records(bytesPerRecord: pixels * (float32 ? 4 : 1), maximum: max(1, filesPerChunk))
        let groups = stride(from: 0, to: files.count, by: perGroup).lazy.map {
            files[$0..<min($0 + perGroup, files.count)]
        }
        try map.run(groups) { images in
            for image in images {
                tally.read += 1
                progress.advance()
                if let failure = image.failure {
                    tally.rejected += 1
                    try quarantine.add(.file(image.path, reason: failure))
                    continue
                }
                let target = try writer ?? NPYWriter(path: outputPath, dtype: float32 ? .float32 : .uint8, itemShape: image.shape)
                writer = target
                guard target.itemShape == image.shape else {
                    tally.rejected += 1
                    try quarantine.add(
                        .file(
                            image.path,
                            reason: "size \(image.shape[1])x\(image.shape[0]) differs from the first image's "
                                + "\(target.itemShape[1])x\(target.itemShape[0]) (--keep-size needs one size)"))
                    continue
                }
                if float32 { try target.append(image.floats) } else { try target.append(image.bytes) }
                try keys?.append([image.path])
                tally.written += 1
            }
        }
        progress.finish()
        if tally.commitsOutput {
            try writer?.commit()
            try keys?.commit()
        }
        try quarantine.finish()
        return tally
    }
}
