import SketchReports

/// The content of `stats.json` (keys documented in docs/stats.md). Encoded with sorted keys, so
/// the bytes depend only on the profile and the input list.
package struct StatsReport: Encodable {
    /// Format version of this document.
    var version = 1
    /// Input files in reading order.
    var inputs: [String]
    /// The `--length` whose truncation share is counted.
    var length: Int
    /// Totals over all categories.
    var totals: Totals
    /// Duplicate key_ids over all inputs.
    var duplicates: Duplicates
    /// Rejected lines.
    var rejected: Rejected
    /// Per-category profiles by `word`.
    var categories: [String: Category]

    struct Totals: Encodable {
        var read: Int
        var drawings: Int
        var rejected: Int
        var sourceErrors: Int
        var categories: Int
        var rawDrawings: Int
        var truncated: Int
        var truncatedShare: Double

        enum CodingKeys: String, CodingKey {
            case read, drawings, rejected, categories, truncated
            case rawDrawings = "raw_drawings"
            case truncatedShare = "truncated_share"
            case sourceErrors = "source_errors"
        }
    }

    struct Duplicates: Encodable {
        var records: Int
        var keyIDs: Int

        enum CodingKeys: String, CodingKey {
            case records
            case keyIDs = "key_ids"
        }
    }

    struct Rejected: Encodable {
        var byReason: [String: Int]
        var quarantine: String

        enum CodingKeys: String, CodingKey {
            case byReason = "by_reason"
            case quarantine
        }
    }

    struct Histogram: Encodable {
        var bucketWidth: Int
        var buckets: [Int]
        var overflow: Int
        var count: Int
        var min: Int?
        var max: Int?
        var mean: Double?
        var median: Int?
        var p90: Int?

        enum CodingKeys: String, CodingKey {
            case bucketWidth = "bucket_width"
            case buckets, overflow, count, min, max, mean, median, p90
        }

        init(_ histogram: ProfileHistogram) {
            bucketWidth = histogram.bucketWidth
            let used = histogram.maximum.map { Swift.min($0 / histogram.bucketWidth + 1, histogram.bucketCount) } ?? 0
            buckets = Array(histogram.counts.prefix(used))
            overflow = histogram.overflow
            count = histogram.count
            min = histogram.minimum
            max = histogram.maximum
            mean = histogram.mean
            median = histogram.quantile(0.5)
            p90 = histogram.quantile(0.9)
        }
    }

    struct Timestamps: Encodable {
        var months: [String: Int]
        var unknown: Int
    }

    struct Category: Encodable {
        var drawings: Int
        var recognized: Int
        var countries: [String: Int]
        var truncated: Int
        var truncatedShare: Double
        var rawDrawings: Int
        var strokes: Histogram
        var points: Histogram
        var rawPoints: Histogram
        var extent: Histogram
        var timestamps: Timestamps
        var thumbnails: [String]

        enum CodingKeys: String, CodingKey {
            case drawings, recognized, countries, truncated, strokes, points, extent, timestamps, thumbnails
            case truncatedShare = "truncated_share"
            case rawDrawings = "raw_drawings"
            case rawPoints = "raw_points"
        }
    }

    /// The report of `profile` over `inputs`.
    init(profile: DatasetProfile, inputs: [String]) {
        self.inputs = inputs
        length = profile.length
        let drawings = profile.tally.written
        totals = Totals(
            read: profile.tally.read, drawings: drawings, rejected: profile.tally.rejected,
            sourceErrors: profile.tally.sourceErrors, categories: profile.categories.count, rawDrawings: profile.rawDrawings,
            truncated: profile.truncated, truncatedShare: Self.share(profile.truncated, of: drawings))
        duplicates = Duplicates(records: profile.duplicates.records, keyIDs: profile.duplicates.keys)
        rejected = Rejected(byReason: profile.rejectedByReason, quarantine: StatsJob.quarantineName)
        categories = profile.categories.mapValues { category in
            var months: [String: Int] = [:]
            for (index, count) in category.months.counts.enumerated() where count > 0 {
                months[CategoryProfile.monthLabel(index)] = count
            }
            return Category(
                drawings: category.drawings, recognized: category.recognized, countries: category.countries,
                truncated: category.truncated, truncatedShare: Self.share(category.truncated, of: category.drawings),
                rawDrawings: category.rawDrawings, strokes: Histogram(category.strokes),
                points: Histogram(category.points), rawPoints: Histogram(category.rawPoints),
                extent: Histogram(category.extent),
                timestamps: Timestamps(months: months, unknown: category.unknownTimestamps),
                thumbnails: category.samples.map(\.keyID))
        }
    }

    /// `part / whole`, 0 when `whole` is 0.
    static func share(_ part: Int, of whole: Int) -> Double { whole == 0 ? 0 : Double(part) / Double(whole) }
}
