/// A fixed-size histogram of non-negative integers: `bucketCount` buckets of `bucketWidth`
/// (bucket i holds `i·w ..< (i+1)·w`) and one overflow bucket for everything above, plus the
/// exact count, sum, minimum and maximum. Its memory does not grow with the data (only the
/// buckets from the lowest to the highest one used are stored, so a category of a few drawings
/// costs a few words, not the whole layout), and two histograms of the same layout merge by
/// adding counts, so partial profiles combine in any order.
package struct ProfileHistogram: Equatable, Sendable {
    /// Width of one bucket (1 makes every statistic exact up to the overflow bucket).
    package let bucketWidth: Int
    /// Number of buckets of the layout.
    package let bucketCount: Int
    /// Counts of the buckets `windowStart ..< windowStart + window.count` (all others are 0).
    private var window: [Int] = []
    private var windowStart = 0
    /// Count per bucket (all `bucketCount` of them).
    package var counts: [Int] {
        var all = [Int](repeating: 0, count: bucketCount)
        for (offset, value) in window.enumerated() { all[windowStart + offset] = value }
        return all
    }
    /// Values at or above `bucketWidth · bucketCount`.
    package private(set) var overflow = 0
    /// Values added.
    package private(set) var count = 0
    /// Sum of the values added.
    package private(set) var sum = 0
    /// Smallest value added (nil when empty).
    package private(set) var minimum: Int?
    /// Largest value added (nil when empty).
    package private(set) var maximum: Int?

    /// An empty histogram with `bucketCount` buckets of `bucketWidth`.
    package init(bucketWidth: Int, bucketCount: Int) {
        precondition(bucketWidth >= 1 && bucketCount >= 1, "ProfileHistogram needs width and count >= 1")
        self.bucketWidth = bucketWidth
        self.bucketCount = bucketCount
    }

    /// The count of bucket `index` (0 outside the stored window).
    private func count(ofBucket index: Int) -> Int {
        let offset = index - windowStart
        return offset >= 0 && offset < window.count ? window[offset] : 0
    }

    /// Adds `amount` to bucket `index` (< `bucketCount`), widening the stored window as needed.
    private mutating func add(_ amount: Int, toBucket index: Int) {
        if window.isEmpty {
            window = [amount]
            windowStart = index
            return
        }
        if index < windowStart {
            window.insert(contentsOf: repeatElement(0, count: windowStart - index), at: 0)
            windowStart = index
        } else if index >= windowStart + window.count {
            window.append(contentsOf: repeatElement(0, count: index - windowStart - window.count + 1))
        }
        window[index - windowStart] += amount
    }

    /// Counts `value` (negative values count as 0).
    package mutating func add(_ value: Int) {
        let value = max(value, 0)
        let bucket = value / bucketWidth
        if bucket < bucketCount { add(1, toBucket: bucket) } else { overflow += 1 }
        count += 1
        sum += value
        minimum = Swift.min(minimum ?? value, value)
        maximum = Swift.max(maximum ?? value, value)
    }

    /// Adds `other`'s counts; both must have the same layout (the profile creates them so).
    package mutating func merge(_ other: ProfileHistogram) {
        precondition(
            bucketWidth == other.bucketWidth && bucketCount == other.bucketCount,
            "ProfileHistogram.merge needs histograms of the same layout")
        for (offset, value) in other.window.enumerated() where value > 0 { add(value, toBucket: other.windowStart + offset) }
        overflow += other.overflow
        count += other.count
        sum += other.sum
        if let value = other.minimum { minimum = Swift.min(minimum ?? value, value) }
        if let value = other.maximum { maximum = Swift.max(maximum ?? value, value) }
    }

    /// Mean of the values (nil when empty).
    package var mean: Double? { count == 0 ? nil : Double(sum) / Double(count) }

    /// Nearest-rank quantile: the lower edge of the bucket holding the value of rank ⌈q·count⌉
    /// (exact with `bucketWidth` 1), or `maximum` when that value lies in the overflow bucket.
    package func quantile(_ q: Double) -> Int? {
        guard count > 0 else { return nil }
        let rank = Swift.max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (offset, value) in window.enumerated() {
            seen += value
            if seen >= rank { return Swift.max((windowStart + offset) * bucketWidth, minimum ?? 0) }
        }
        return maximum
    }

    /// The quantile as shown in tables, saying exactly what the histogram knows: the value itself
    /// for width-1 buckets (`"42"`), the bucket's range for wider ones (`"120–129"`), and
    /// `"≥ N"` when it lies in the overflow bucket; `"–"` when empty.
    package func quantileText(_ q: Double) -> String {
        guard count > 0, let value = quantile(q) else { return "–" }
        let lower = value / bucketWidth * bucketWidth
        if lower >= counts.count * bucketWidth { return "≥ \(counts.count * bucketWidth)" }
        if bucketWidth == 1 { return String(value) }
        return "\(value)–\(Swift.min(lower + bucketWidth - 1, maximum ?? value))"
    }

    /// Regrouped counts for display: at most `maximumBars` bars of equal width covering
    /// `0 ... maximum` (`minimum ... maximum` with `startingAtMinimum`); the overflow bucket, if
    /// used, becomes a last open-ended bar.
    package func bars(maximumBars: Int, startingAtMinimum: Bool = false) -> [ProfileHistogramBar] {
        guard let maximum, let minimum, count > 0 else { return [] }
        let firstBucket = startingAtMinimum ? Swift.min(minimum / bucketWidth, bucketCount) : 0
        let usedBuckets = Swift.min(maximum / bucketWidth + 1, bucketCount)
        let bucketsPerBar = Swift.max(1, (usedBuckets - firstBucket + maximumBars - 1) / maximumBars)
        var bars: [ProfileHistogramBar] = []
        var start = firstBucket
        while start < usedBuckets {
            let end = Swift.min(start + bucketsPerBar, usedBuckets)
            bars.append(
                ProfileHistogramBar(
                    lower: start * bucketWidth, upper: end * bucketWidth - 1,
                    count: (start..<end).reduce(0) { $0 + count(ofBucket: $1) }))
            start = end
        }
        if overflow > 0 {
            bars.append(ProfileHistogramBar(lower: bucketCount * bucketWidth, upper: nil, count: overflow))
        }
        return bars
    }
}

/// One bar of a displayed histogram: the values `lower ... upper` (no upper bound when nil).
package struct ProfileHistogramBar: Equatable, Sendable {
    /// Smallest value in the bar.
    package var lower: Int
    /// Largest value in the bar, or nil for the open-ended overflow bar.
    package var upper: Int?
    /// Values in the bar.
    package var count: Int
}
