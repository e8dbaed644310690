import SketchCore
import SketchDataset
import SketchFormats
import SketchIO

/// What the engine does with each image of a labelled image directory, like ``RecordStage`` for
/// drawings: only a description; each batch gets fresh state from `makeBatch` on its worker thread.
package protocol ImageStage: Sendable {
    /// The per-batch state.
    associatedtype Batch: ImageStageBatch
    /// Fresh state for a batch of `count` images.
    func makeBatch(count: Int) -> Batch
}

/// The state of an ``ImageStage`` over one batch of images, taken in order.
package protocol ImageStageBatch {
    /// The output of one batch.
    associatedtype Output: Sendable
    /// Appends what the decoded `image` of `file` (number `index` of the listing) becomes; an
    /// image the stage refuses throws and is quarantined instead, with nothing appended.
    mutating func process(_ image: GrayImage, file: LabeledImageFile, index: Int) throws(StageRejection)
    /// The output after the last image.
    var output: Output { get }
    /// Seconds spent encoding.
    var seconds: StageSeconds { get }
}

/// The worker side of the engine for labelled image directories (`LabeledImageDirectory`): one
/// batch of image files (indices into `files`) read and decoded to gray (`PNGImage.readGray`),
/// filtered by class and handed to the stage, with the batch's counts, rejections (a file that
/// is not a valid PNG, with its reason) and stage seconds (``BatchOutcome``); the image
/// counterpart of ``DrawingBatchWork``, run on the worker threads of ``RecordStream``.
package struct ImageBatchWork<Stage: ImageStage>: Sendable {
    /// What each image becomes.
    package var stage: Stage
    /// The listing's files.
    package var files: [LabeledImageFile]
    /// The per-record filters; only the category list applies to images.
    package var filter: RecordFilter?
    /// Whether the class of every image read is collected (a category filter's check).
    package var tracksWords = false
    /// Whether each file's stored size and SHA-256 are measured (each file its own chunk).
    package var measuresFiles = false

    /// A worker running `stage` over batches of `files`.
    package init(stage: Stage, files: [LabeledImageFile]) {
        self.stage = stage
        self.files = files
    }

    /// Reads, decodes and processes the files `batch`; throws when a file to measure cannot be read.
    package func callAsFunction(_ batch: [Int]) throws -> BatchOutcome<Stage.Batch.Output> {
        var state = stage.makeBatch(count: batch.count)
        var outcome = BatchOutcome(chunk: 0, output: state.output)
        var parse = 0.0
        for index in batch {
            let file = files[index]
            // A file measured is read once: its bytes are hashed and decoded (one that cannot be
            // read whole under the decoder's cap is measured as a stream and read again).
            var bytes: [UInt8]?
            if measuresFiles {
                bytes = try? PNGImage.fileBytes(path: file.path)
                let measured = try bytes.map { ($0.count, SHA256Hasher.hash($0).hexString) } ?? InputFile.measure(file.path)
                outcome.measuredFiles.append((index, measured.0, measured.1))
            }
            if tracksWords { outcome.seenWords.insert(file.className) }
            if let filter, !filter.wantsClass(file.className) {
                outcome.counts.read += 1
                outcome.counts.filtered += 1
                continue
            }
            var t = MonotonicClock.now()
            do throws(StageRejection) {
                let image: GrayImage
                do throws(FormatError) {
                    if let bytes { image = try PNGImage.decodeGray(bytes) } else { image = try PNGImage.readGray(path: file.path) }
                } catch {
                    throw StageRejection(error.reason)
                }
                parse += MonotonicClock.lap(&t)
                try state.process(image, file: file, index: index)
                outcome.counts.read += 1
                outcome.counts.written += 1
            } catch {
                outcome.reject(.file(index: index, path: file.path, reason: error.reason))
            }
        }
        outcome.output = state.output
        outcome.seconds = state.seconds
        outcome.seconds.parse = parse
        return outcome
    }
}
