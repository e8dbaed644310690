import SketchCore
import Testing

@testable import SketchPipeline

@Suite struct DatasetProfileTests {
    /// A simplified drawing of one stroke with `points` points.
    private func record(
        _ key: String, word: String = "cat", points: Int, country: String = "US",
        recognized: Bool = true, timestamp: String = "2017-03-28 01:29:13.62763 UTC"
    ) -> (SketchRecord, FlatStrokes) {
        let stroke = Stroke(x: (0..<points).map { Double($0 % 256) }, y: (0..<points).map { Double(($0 * 7) % 256) })
        let drawing = Drawing(strokes: [stroke])
        var flat = FlatStrokes()
        flat.replaceContents(with: drawing)
        return (
            SketchRecord(
                word: word, countryCode: country, timestamp: timestamp, recognized: recognized,
                keyID: key, drawing: drawing), flat
        )
    }

    private func profile(_ records: [(SketchRecord, FlatStrokes)], length: Int = 75, thumbnails: Int = 2) -> DatasetProfile {
        var profile = DatasetProfile(length: length, thumbnailCount: thumbnails)
        for (line, (record, flat)) in records.enumerated() {
            profile.add(record, simplified: flat, wasRaw: false, fileIndex: 0, line: line + 1)
        }
        return profile
    }

    @Test func truncationCountsDrawingsWithMoreDeltaRowsThanTheLength() {
        // 76 points give 75 delta rows (kept whole); 77 points give 76 rows (one cut).
        let records = [record("1", points: 76), record("2", points: 77), record("3", points: 200), record("4", points: 1)]
        let cat = profile(records).categories["cat"]!
        #expect(cat.drawings == 4)
        #expect(cat.truncated == 2)
        #expect(StatsReport.share(cat.truncated, of: cat.drawings) == 0.5)
        #expect(profile(records, length: 10).categories["cat"]!.truncated == 3)
    }

    @Test func countsCountriesRecognizedFlagsAndMonths() {
        let records = [
            record("1", points: 5, country: "US"), record("2", points: 5, country: "DE", recognized: false),
            record("3", points: 5, country: "US", timestamp: "garbage"),
        ]
        let cat = profile(records).categories["cat"]!
        #expect(cat.countries == ["US": 2, "DE": 1])
        #expect(cat.recognized == 2)
        #expect(cat.unknownTimestamps == 1)
        #expect(cat.months.counts[CategoryProfile.monthIndex(ofTimestamp: "2017-03-01")!] == 2)
        #expect(CategoryProfile.monthLabel(CategoryProfile.monthIndex(ofTimestamp: "2017-03-28 01:29:13 UTC")!) == "2017-03")
        #expect(CategoryProfile.monthIndex(ofTimestamp: "2017-13-01") == nil)
    }

    @Test func mergedPartialProfilesEqualTheProfileOfAllRecords() {
        let records = (0..<30).map { index in
            record(
                "key\(index)", word: index % 3 == 0 ? "dog" : "cat", points: 10 + index * 5,
                country: index % 2 == 0 ? "US" : "GB")
        }
        let whole = profile(records)
        var merged = profile(Array(records[20...]))
        merged.merge(profile(Array(records[..<7])))
        merged.merge(profile(Array(records[7..<20])))
        #expect(merged.tally == whole.tally)
        #expect(merged.categories.keys.sorted() == ["cat", "dog"])
        for word in ["cat", "dog"] {
            let a = merged.categories[word]!
            let b = whole.categories[word]!
            #expect(a.drawings == b.drawings)
            #expect(a.truncated == b.truncated)
            #expect(a.countries == b.countries)
            #expect(a.points == b.points)
            #expect(a.strokes == b.strokes)
            #expect(a.extent == b.extent)
            #expect(a.months == b.months)
            #expect(a.samples.map(\.keyID) == b.samples.map(\.keyID))
        }
    }

    @Test func thumbnailsAreTheLowestHashRanksWhateverTheOrder() {
        let records = (0..<20).map { record("key\($0)", points: 4) }
        let forward = profile(records, thumbnails: 3).categories["cat"]!.samples
        let backward = profile(records.reversed(), thumbnails: 3).categories["cat"]!.samples
        #expect(forward.count == 3)
        #expect(forward.map(\.keyID) == backward.map(\.keyID))
        let expected = records.map(\.0.keyID).sorted { fnv1a64($0) < fnv1a64($1) }.prefix(3)
        #expect(forward.map(\.keyID) == Array(expected))
    }

    @Test func rawDrawingsCountTheirPointsBeforeSimplification() {
        var profile = DatasetProfile(length: 75, thumbnailCount: 0)
        let (raw, _) = record("r", points: 300)
        let (_, simplified) = record("r", points: 20)
        profile.add(raw, simplified: simplified, wasRaw: true, fileIndex: 0, line: 1)
        let cat = profile.categories["cat"]!
        #expect(cat.rawDrawings == 1)
        #expect(cat.rawPoints.maximum == 300)
        #expect(cat.points.maximum == 20)
        #expect(cat.truncated == 0)
    }
}

/// The split hash of a key, as the profile ranks thumbnails.
private func fnv1a64(_ key: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
}
