import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchRaster
import SketchTestSupport
import Testing

@testable import SketchPipeline

@Suite struct RecordStreamTests {
    /// SampleData's raw cat drawings with bad lines spread through them (a short stroke, a broken
    /// line, a blank line), written to a fresh file; returns the directory and the file.
    static func inputWithBadLines() throws -> (directory: URL, file: String, badLines: [String]) {
        let directory = try TestSupport.temporaryDirectory()
        let raw = try String(
            contentsOf: TestSupport.repositoryRoot
                .appendingPathComponent("SampleData/quickdraw/raw/cat.ndjson"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        let badLines = [#"{"word":"cat","drawing":[[[1,2],[3]]]}"#, #"{"word":"#, #"not json"#]
        var lines: [String] = []
        for (index, line) in raw.enumerated() {
            lines.append(line)
            if index % 7 == 3 { lines.append(badLines[index % badLines.count]) }
            if index == 10 { lines.append("") }
        }
        let file = directory.appendingPathComponent("cat.ndjson").path
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let rejected = lines.filter { badLines.contains($0) }
        return (directory, file, rejected)
    }

    @Test func simplifyWritesTheSameBytesAndQuarantineForEveryJobCountAndBatchSize() throws {
        let (directory, file, badLines) = try Self.inputWithBadLines()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outputs: [(simplified: Data, quarantine: Data)] = []
        for (jobs, linesPerBatch) in [(1, 1024), (2, 3), (4, 1), (4, 17)] {
            let output = directory.appendingPathComponent("out-\(jobs)-\(linesPerBatch).ndjson")
            let quarantine = directory.appendingPathComponent("q-\(jobs)-\(linesPerBatch).ndjson")
            var job = SimplifyJob(
                reader: try DrawingSource(inputs: [file]), outputPath: output.path,
                quarantinePath: quarantine.path, showsProgress: false, jobs: jobs)
            job.linesPerBatch = linesPerBatch
            let result = try job.run()
            #expect(result.tally.isReconciled)
            #expect(result.tally.rejected == badLines.count)
            outputs.append((try Data(contentsOf: output), try Data(contentsOf: quarantine)))
        }
        #expect(outputs.allSatisfy { $0.simplified == outputs[0].simplified && $0.quarantine == outputs[0].quarantine })
        #expect(String(decoding: outputs[0].quarantine, as: UTF8.self) == badLines.map { $0 + "\n" }.joined())
    }

    @Test func aRunWhoseInputsAllVanishedThrowsTheNoInputReadableError() throws {
        let (directory, file, _) = try Self.inputWithBadLines()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = try DrawingSource(inputs: [file])
        try FileManager.default.removeItem(atPath: file)
        let output = directory.appendingPathComponent("out.ndjson").path
        let job = SimplifyJob(reader: reader, outputPath: output, quarantinePath: output + ".rejected", showsProgress: false, jobs: 1)
        let error = try #require(throws: FormatError.self) { try job.run() }
        #expect(error.kind == .noInputReadable)
        #expect(error.description.hasPrefix("none of the 1 inputs could be read"))
    }

    @Test func encodeAndBitmapWriteTheSameBytesForJobs1Through4() throws {
        let (directory, file, _) = try Self.inputWithBadLines()
        defer { try? FileManager.default.removeItem(at: directory) }
        var tensors: [Data] = []
        var bitmaps: [Data] = []
        for jobs in [1, 2, 4] {
            let tensorPath = directory.appendingPathComponent("t\(jobs).npy").path
            let bitmapPath = directory.appendingPathComponent("b\(jobs).npy").path
            let encoded = try EncodeJob(
                reader: DrawingSource(inputs: [file]), outputPath: tensorPath,
                quarantinePath: tensorPath + ".rejected", tensor: .book, inputFormat: .auto,
                simplification: .google, showsProgress: false, jobs: jobs
            ).run()
            #expect(encoded.stream.tally.isReconciled && encoded.rows == encoded.stream.tally.written)
            let rendered = try BitmapJob(
                reader: DrawingSource(inputs: [file]), outputPath: bitmapPath,
                quarantinePath: bitmapPath + ".rejected", render: StrokeRenderOptions(side: 28),
                inputFormat: .auto, showsProgress: false, jobs: jobs
            ).run()
            #expect(rendered.tally == encoded.stream.tally)
            tensors.append(try Data(contentsOf: URL(fileURLWithPath: tensorPath)))
            bitmaps.append(try Data(contentsOf: URL(fileURLWithPath: bitmapPath)))
        }
        #expect(tensors.allSatisfy { $0 == tensors[0] })
        #expect(bitmaps.allSatisfy { $0 == bitmaps[0] })
    }

    @Test(arguments: [1, 3])
    func parallelRecordsMatchTheSerialReaderRecordForRecord(jobs: Int) throws {
        let (directory, file, _) = try Self.inputWithBadLines()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (expected, expectedRejected) = try TestSupport.readAll([file])
        var stream = RecordStream(reader: try DrawingSource(inputs: [file]), jobs: jobs, showsProgress: false)
        stream.linesPerBatch = 5
        var keys: [String] = []
        let result = try stream.run(KeyStage(), quarantinePath: nil) { keys += $0 }
        #expect(keys == expected.map(\.keyID))
        #expect(
            result.tally
                == RecordCounts(
                    read: expected.count + expectedRejected.count, written: expected.count,
                    rejected: expectedRejected.count))
        #expect(result.rejectedByReason.values.reduce(0, +) == expectedRejected.count)
    }

    @Test func aFailingWriterStopsTheRunWithItsError() throws {
        let (directory, file, _) = try Self.inputWithBadLines()
        defer { try? FileManager.default.removeItem(at: directory) }
        struct DiskFull: Error {}
        var stream = RecordStream(reader: try DrawingSource(inputs: [file]), jobs: 2, showsProgress: false)
        stream.linesPerBatch = 4
        var batchesWritten = 0
        #expect(throws: DiskFull.self) {
            _ = try stream.run(KeyStage(), quarantinePath: nil) { _ in
                if batchesWritten == 3 { throw DiskFull() }
                batchesWritten += 1
            }
        }
        #expect(batchesWritten == 3)
    }
}

/// A stage that keeps each record's key_id, to compare a stream with the serial reader.
private struct KeyStage: RecordStage {
    var input: RecordStageInput { .drawings }
    func makeBatch(lineCount: Int, format: DrawingFileFormat) -> Batch { Batch() }
    struct Batch: RecordStageBatch {
        var output: [String] = []
        mutating func process(
            _ record: SketchRecord, strokes: FlatStrokes, line: RecordLine,
            location: SketchFormats.SourceLocation
        ) { output.append(record.keyID) }
    }
}
