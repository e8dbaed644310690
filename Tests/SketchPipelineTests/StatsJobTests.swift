import Foundation
import SketchFormats
import SketchTestSupport
import Testing

@testable import SketchPipeline

@Suite struct StatsJobTests {
    /// Two small NDJSON files: a raw and a simplified drawing share key_id 7 (one duplicate),
    /// and one line is not JSON.
    private func writeInputs(in directory: URL) throws -> [String] {
        let first = directory.appendingPathComponent("a.ndjson")
        let second = directory.appendingPathComponent("b.ndjson")
        try """
        {"word":"cat","countrycode":"US","timestamp":"2017-03-01 10:00:00.1 UTC","recognized":true,"key_id":"7","drawing":[[[0,10,20],[0,5,9]]]}
        not json
        {"word":"dog","countrycode":"DE","timestamp":"2017-04-01 10:00:00.1 UTC","recognized":false,"key_id":"8","drawing":[[[0,100,600],[0,50,400],[0,16,33]]]}

        """.write(to: first, atomically: true, encoding: .utf8)
        try """
        {"word":"cat","countrycode":"GB","timestamp":"2017-03-02 10:00:00.1 UTC","recognized":true,"key_id":"7","drawing":[[[1,2],[3,4]],[[9],[9]]]}

        """.write(to: second, atomically: true, encoding: .utf8)
        return [first.path, second.path]
    }

    @Test func profilesCountsDuplicatesAndRejectedLines() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try StatsJob(
            source: DrawingSource(inputs: try writeInputs(in: directory)), length: 2, thumbnailCount: 1, jobs: 1, showsMessages: false)
        let quarantine = directory.appendingPathComponent("rejected.ndjson")
        let profile = try job.profile(
            spillBase: directory.appendingPathComponent("spill").path,
            quarantinePath: quarantine.path)
        #expect(profile.tally.read == 4)
        #expect(profile.tally.written == 3)
        #expect(profile.tally.rejected == 1)
        #expect(try String(contentsOf: quarantine, encoding: .utf8) == "not json\n")
        #expect(profile.duplicates == DuplicateKeyCounter.Counts(records: 1, keys: 1))
        #expect(profile.categories["cat"]?.drawings == 2)
        #expect(profile.categories["cat"]?.truncated == 0)
        #expect(profile.rawDrawings == 1)
        #expect(profile.categories["dog"]?.rawPoints.maximum == 3)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("spill").path))
    }

    @Test func outputBytesDoNotDependOnTheJobCount() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = try writeInputs(in: directory)
        var outputs: [[Data]] = []
        for jobs in [1, 2, 3] {
            let out = directory.appendingPathComponent("out\(jobs)")
            _ = try StatsJob(source: DrawingSource(inputs: inputs), jobs: jobs, showsMessages: false).run(outputDirectory: out.path)
            outputs.append(
                try ["stats.json", "stats.md", "stats.html"].map {
                    try Data(contentsOf: out.appendingPathComponent($0))
                })
        }
        #expect(outputs[0] == outputs[1] && outputs[0] == outputs[2])
        let html = String(decoding: outputs[0][2], as: UTF8.self)
        #expect(html.contains("<svg"))
        #expect(html.contains("src=\"data:image/png;base64,"))
        #expect(!html.contains("<script"))
    }

    @Test("stats.md shows a class word and a rejection reason from data as text: no tag, no row break")
    func statsMarkdownEscapesWordsFromData() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("a.ndjson")
        try """
        {"word":"<img src=x onerror=alert(1)>|`x`","countrycode":"US","timestamp":"","recognized":true,"key_id":"1","drawing":[[[0,10],[0,5]]]}

        """.write(to: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        _ = try StatsJob(source: DrawingSource(inputs: [input.path]), jobs: 1, showsMessages: false).run(outputDirectory: out.path)
        let markdown = try String(contentsOf: out.appendingPathComponent("stats.md"), encoding: .utf8)
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("`x`"))
        #expect(markdown.contains("&#60;img src=x onerror=alert(1)&#62;&#124;&#96;x&#96;"))
    }
}
