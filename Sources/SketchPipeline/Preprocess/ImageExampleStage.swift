import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster

/// The preprocess map side's stage for labelled images: each decoded image resampled to the
/// raster side (`BoxResampler`), made a payload (`RasterEncodeOptions.payload(_:)`) and an example
/// in its final label-free bytes (``ExampleBody``; PNG bodies with the Paeth row filter), keyed by
/// its relative path, labelled with its class directory, in its split directory's split or else
/// the split rule's.
struct ImageExampleStage: ImageStage {
    var resampler: BoxResampler
    var options: RasterEncodeOptions
    var encoding: ExampleBody.Encoding
    var seed: UInt64
    var split: DatasetSplit

    func makeBatch(count: Int) -> Batch { Batch(stage: self) }

    struct Batch: ImageStageBatch {
        let stage: ImageExampleStage
        private(set) var mapped = MappedExamples()
        var output: MappedExamples { mapped.sorted() }
        private(set) var seconds = StageSeconds()

        mutating func process(_ image: GrayImage, file: LabeledImageFile, index: Int) throws(StageRejection) {
            var t = MonotonicClock.now()
            let body: ExampleBody
            do {
                body = try ExampleBody.make(
                    payload: stage.options.payload(stage.resampler.resample(image).pixels), keyID: file.keyID, word: file.className,
                    facts: RecordFacts(), encoding: stage.encoding, pngFilter: .paeth)
            } catch {
                throw StageRejection("\(error)")
            }
            mapped.append(
                SortedExample(
                    sortKey: SortKey.of(keyID: file.keyID, seed: stage.seed), keyID: file.keyID, chunk: 0, ordinal: UInt64(index),
                    word: file.className,
                    split: file.directorySplit.flatMap(SplitName.init(rawValue:)) ?? stage.split.split(forKeyID: file.keyID),
                    body: body))
            seconds.encode += MonotonicClock.lap(&t)
        }
    }
}
