import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchIO
import SketchRaster
import SketchTestSupport
import Testing

@testable import SketchPipeline

/// The engine's worker side (`DrawingBatchWork`, `ImageBatchWork`): what a batch's outcome counts,
/// rejects and tracks, before any consumer sees it.
@Suite struct EngineWorkTests {
    /// A stage that counts the records it is handed.
    private struct CountingStage: RecordStage {
        var input: RecordStageInput { .drawings }
        func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch { Batch() }
        struct Batch: RecordStageBatch {
            private(set) var output = 0
            mutating func process(
                _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine, location: SketchFormats.SourceLocation
            ) throws(StageRejection) { output += 1 }
        }
    }

    /// A stage that keeps each image's pixel count.
    private struct PixelCountStage: ImageStage {
        func makeBatch(count: Int) -> Batch { Batch() }
        struct Batch: ImageStageBatch {
            private(set) var output: [Int] = []
            var seconds: StageSeconds { StageSeconds() }
            mutating func process(_ image: GrayImage, file: LabeledImageFile, index: Int) throws(StageRejection) {
                output.append(image.width * image.height)
            }
        }
    }

    @Test func drawingBatchWorkCountsFilteredRecordsBeforeTheStageAndTracksWordsAndCountriesOfEveryRecordRead() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cat = try String(
            contentsOf: TestSupport.repositoryRoot.appendingPathComponent("SampleData/quickdraw/raw/cat.ndjson"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        let unrecognized = cat[1].replacingOccurrences(of: #""recognized":true"#, with: #""recognized":false"#)
            .replacingOccurrences(of: #""countrycode":"[A-Z]+""#, with: #""countrycode":"ZZ""#, options: .regularExpression)
        let file = directory.appendingPathComponent("cat.ndjson").path
        try [cat[0], unrecognized, "not json"].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let batches = InputBatches(sources: [InputBatches.Source(path: file)], selected: [0], hashing: false)
        var work = DrawingBatchWork(stage: CountingStage(), chunks: [(file, .ndjson)])
        work.filter = RecordFilter(FilterStage(recognizedOnly: true, countries: [], categories: [], maxPerClass: nil))
        work.tracksWords = true
        work.tracksCountries = true
        let outcome = work(try #require(batches.next()))
        #expect(outcome.counts == RecordCounts(read: 3, written: 1, filtered: 1, rejected: 1))
        #expect(outcome.output == 1)
        #expect(outcome.seenCountries.contains("ZZ") && outcome.seenCountries.count == 2)
        #expect(outcome.seenWords == ClassWords(["cat"]))
        guard case let .record(line, _, bytes) = try #require(outcome.rejections.first) else {
            Issue.record("expected a rejected line, got \(outcome.rejections)")
            return
        }
        #expect(line == 3 && bytes == Array("not json".utf8))
    }

    @Test func imageBatchWorkDecodesOnTheWorkerFiltersByClassAndRejectsAFileThatIsNotAPNG() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for word in ["ant", "bee"] {
            try FileManager.default.createDirectory(atPath: "\(directory.path)/\(word)", withIntermediateDirectories: true)
            try writeAtomically(
                try PNGEncoder.encode(GrayImage(width: 40, height: 30, pixels: [UInt8](repeating: 9, count: 1200))),
                to: "\(directory.path)/\(word)/0.png")
        }
        try writeAtomically(Array("not a png".utf8), to: "\(directory.path)/ant/broken.png")
        let listing = try LabeledImageDirectory.scan(directory.path)
        var work = ImageBatchWork(stage: PixelCountStage(), files: listing.files)
        work.filter = RecordFilter(FilterStage(recognizedOnly: false, countries: [], categories: ["ant"], maxPerClass: nil))
        work.tracksWords = true
        work.measuresFiles = true
        let outcome = try work(Array(listing.files.indices))
        #expect(outcome.counts == RecordCounts(read: 3, written: 1, filtered: 1, rejected: 1))
        #expect(outcome.output == [1200])
        #expect(outcome.seenWords == ClassWords(["ant", "bee"]))
        #expect(outcome.measuredFiles.map(\.index) == Array(listing.files.indices))
        guard case let .file(index, path, _) = try #require(outcome.rejections.first) else {
            Issue.record("expected a rejected file, got \(outcome.rejections)")
            return
        }
        #expect(listing.files[index].path == path && path.hasSuffix("ant/broken.png"))
    }
}
