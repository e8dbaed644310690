import SketchCore
import SketchReports

/// The profile of one category (Quick, Draw! `word`): counts, fixed-size histograms and the
/// drawings chosen as thumbnails. Memory is fixed per category (countries are bounded by the
/// ISO country codes, samples by `thumbnailCount`).
package struct CategoryProfile: Sendable {
    /// Drawings profiled.
    package var drawings = 0
    /// Drawings with `recognized: true`.
    package var recognized = 0
    /// Drawings per country code.
    package var countries: [String: Int] = [:]
    /// Drawings whose encoding at the profile's length would be truncated
    /// (more delta rows, i.e. points − 1, than the length).
    package var truncated = 0
    /// Drawings that were raw (simplified with Google's rule before profiling).
    package var rawDrawings = 0
    /// Strokes per drawing.
    package var strokes = ProfileHistogram(bucketWidth: 1, bucketCount: 256)
    /// Simplified points per drawing.
    package var points = ProfileHistogram(bucketWidth: 1, bucketCount: 1024)
    /// Points per drawing before simplification (raw drawings only).
    package var rawPoints = ProfileHistogram(bucketWidth: 10, bucketCount: 1000)
    /// Extent as read: max(width, height) of the input coordinates.
    package var extent = ProfileHistogram(bucketWidth: 8, bucketCount: 512)
    /// Months since January 2000 of each parseable timestamp (to December 2039).
    package var months = ProfileHistogram(bucketWidth: 1, bucketCount: 480)
    /// Drawings whose timestamp does not start with `YYYY-MM` in 2000–2039.
    package var unknownTimestamps = 0
    /// The thumbnail candidates: the lowest hash ranks seen so far, in rank order.
    package private(set) var samples: [ProfileSample] = []

    /// An empty profile.
    package init() {}

    /// Keeps `sample` if it is among the `limit` lowest ranks.
    package mutating func offer(_ sample: ProfileSample, limit: Int) {
        guard limit > 0 else { return }
        if samples.count == limit, let last = samples.last, !(sample < last) { return }
        let index = samples.firstIndex { sample < $0 } ?? samples.count
        samples.insert(sample, at: index)
        if samples.count > limit { samples.removeLast() }
    }

    /// Adds `other`'s counts and samples (keeping the `limit` lowest ranks).
    package mutating func merge(_ other: CategoryProfile, limit: Int) {
        drawings += other.drawings
        recognized += other.recognized
        countries.merge(other.countries, uniquingKeysWith: +)
        truncated += other.truncated
        rawDrawings += other.rawDrawings
        strokes.merge(other.strokes)
        points.merge(other.points)
        rawPoints.merge(other.rawPoints)
        extent.merge(other.extent)
        months.merge(other.months)
        unknownTimestamps += other.unknownTimestamps
        for sample in other.samples { offer(sample, limit: limit) }
    }

    /// The month index (months since 2000-01) of a Quick, Draw! timestamp such as
    /// `2017-03-28 01:29:13.62763 UTC`, or nil when it does not start with a year 2000–2039 and a month.
    package static func monthIndex(ofTimestamp timestamp: String) -> Int? {
        let bytes = Array(timestamp.utf8.prefix(7))
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-") else { return nil }
        func number(_ slice: ArraySlice<UInt8>) -> Int? {
            var value = 0
            for byte in slice {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
            (2000...2039).contains(year), (1...12).contains(month)
        else { return nil }
        return (year - 2000) * 12 + month - 1
    }

    /// `YYYY-MM` of a month index from `monthIndex(ofTimestamp:)`.
    package static func monthLabel(_ index: Int) -> String {
        let month = index % 12 + 1
        return "\(2000 + index / 12)-\(month < 10 ? "0" : "")\(month)"
    }
}

/// A drawing kept as a thumbnail candidate, ordered by hash rank of its key_id (FNV-1a 64, the
/// split hash), then key_id, then input position, so the choice does not depend on reading order.
package struct ProfileSample: Sendable, Comparable {
    /// FNV-1a 64 of the key_id.
    package var rank: UInt64
    /// The key_id.
    package var keyID: String
    /// Index of the input file in the run's file list.
    package var fileIndex: Int
    /// Line in that file.
    package var line: Int
    /// The simplified strokes.
    package var drawing: Drawing

    package static func < (a: ProfileSample, b: ProfileSample) -> Bool {
        (a.rank, a.keyID, a.fileIndex, a.line) < (b.rank, b.keyID, b.fileIndex, b.line)
    }

    package static func == (a: ProfileSample, b: ProfileSample) -> Bool {
        (a.rank, a.keyID, a.fileIndex, a.line) == (b.rank, b.keyID, b.fileIndex, b.line)
    }
}
