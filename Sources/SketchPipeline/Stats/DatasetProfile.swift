import SketchCore
import SketchDataset
import SketchFormats

/// The accumulator behind `sketchprep stats`: per-category profiles, the run's tally, rejected
/// lines by reason and duplicate key_id counts.
///
/// Every part merges by adding counts or keeping the lowest hash ranks, so workers build partial
/// profiles over disjoint inputs and `merge(_:)` combines them in any order to the same result.
/// See docs/stats.md for what each figure means.
package struct DatasetProfile: Sendable {
    /// The sequence length whose truncation share is counted.
    package let length: Int
    /// Thumbnails kept per category.
    package let thumbnailCount: Int
    /// Most categories one profile holds (each costs about a kilobyte, its report rows and
    /// thumbnails more): `stats` stops with a message past it, so memory stays bounded whatever
    /// the input (docs/limits.md).
    package static let maximumCategories = 50_000
    /// Profiles by category (`word`).
    package var categories: [String: CategoryProfile] = [:]
    /// read = written (profiled) + rejected.
    package var tally = RecordCounts()
    /// Rejected lines per reason kind (as `QuarantineWriter.countsByReason` groups them).
    package var rejectedByReason: [String: Int] = [:]
    /// Duplicate key_ids over all inputs (filled in after the duplicate count).
    package var duplicates = DuplicateKeyCounter.Counts()

    /// An empty profile for `length` and `thumbnailCount`.
    package init(length: Int, thumbnailCount: Int) {
        self.length = length
        self.thumbnailCount = thumbnailCount
    }

    /// Profiles one record: `record.drawing` as read (for extent and raw points), `simplified` its
    /// simplified strokes (the drawing itself when it was already simplified).
    package mutating func add(_ record: SketchRecord, simplified: FlatStrokes, wasRaw: Bool, fileIndex: Int, line: Int) {
        tally.read += 1
        tally.written += 1
        var category = categories[record.word] ?? CategoryProfile()
        category.drawings += 1
        if record.recognized { category.recognized += 1 }
        category.countries[record.countryCode, default: 0] += 1
        category.strokes.add(simplified.strokeCount)
        let pointCount = simplified.x.count
        category.points.add(pointCount)
        if max(pointCount - 1, 0) > length { category.truncated += 1 }
        if wasRaw {
            category.rawDrawings += 1
            category.rawPoints.add(record.drawing.pointCount)
        }
        category.extent.add(Self.extent(of: record.drawing))
        if let month = CategoryProfile.monthIndex(ofTimestamp: record.timestamp) {
            category.months.add(month)
        } else {
            category.unknownTimestamps += 1
        }
        let sample = ProfileSample(
            rank: FNV1a64.hash(record.keyID), keyID: record.keyID,
            fileIndex: fileIndex, line: line, drawing: simplified.drawing)
        category.offer(sample, limit: thumbnailCount)
        categories[record.word] = category
    }

    /// Adds `other` (a profile of other inputs with the same settings).
    package mutating func merge(_ other: DatasetProfile) {
        for (word, profile) in other.categories {
            categories[word, default: CategoryProfile()].merge(profile, limit: thumbnailCount)
        }
        tally.read += other.tally.read
        tally.written += other.tally.written
        tally.rejected += other.tally.rejected
        tally.sourceErrors += other.tally.sourceErrors
        rejectedByReason.merge(other.rejectedByReason, uniquingKeysWith: +)
        duplicates.records += other.duplicates.records
        duplicates.keys += other.duplicates.keys
    }

    /// Drawings whose encoding at `length` would be truncated, over all categories.
    package var truncated: Int { categories.values.reduce(0) { $0 + $1.truncated } }

    /// Drawings that were raw, over all categories.
    package var rawDrawings: Int { categories.values.reduce(0) { $0 + $1.rawDrawings } }

    /// Categories in byte-wise name order.
    package var sortedCategories: [(word: String, profile: CategoryProfile)] {
        categories.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    /// max(width, height) of the drawing's points, rounded (0 for an empty drawing).
    static func extent(of drawing: Drawing) -> Int {
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for stroke in drawing.strokes {
            for value in stroke.x {
                minX = min(minX, value)
                maxX = max(maxX, value)
            }
            for value in stroke.y {
                minY = min(minY, value)
                maxY = max(maxY, value)
            }
        }
        let extent = max(maxX - minX, maxY - minY)
        guard extent.isFinite, extent > 0 else { return 0 }
        return Int(min(extent, 1e12).rounded())
    }
}
