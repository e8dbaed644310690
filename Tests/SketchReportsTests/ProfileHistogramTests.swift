import Testing

@testable import SketchReports

@Suite struct ProfileHistogramTests {
    @Test func countsValuesInBucketsAndOverflow() {
        var histogram = ProfileHistogram(bucketWidth: 10, bucketCount: 3)
        for value in [0, 9, 10, 29, 30, 500, -4] { histogram.add(value) }
        #expect(histogram.counts == [3, 1, 1])
        #expect(histogram.overflow == 2)
        #expect(histogram.count == 7)
        #expect(histogram.sum == 0 + 9 + 10 + 29 + 30 + 500 + 0)
        #expect(histogram.minimum == 0)
        #expect(histogram.maximum == 500)
    }

    @Test func nearestRankQuantilesAreExactWithWidthOne() {
        var histogram = ProfileHistogram(bucketWidth: 1, bucketCount: 100)
        for value in 1...10 { histogram.add(value) }
        #expect(histogram.quantile(0.5) == 5)
        #expect(histogram.quantile(0.9) == 9)
        #expect(histogram.quantile(1.0) == 10)
        histogram.add(1000)
        #expect(histogram.quantile(1.0) == 1000)
        #expect(ProfileHistogram(bucketWidth: 1, bucketCount: 1).quantile(0.5) == nil)
    }

    @Test func mergeEqualsAddingEveryValueToOneHistogram() {
        let values = [3, 7, 7, 120, 45, 0, 64, 999, 12]
        var whole = ProfileHistogram(bucketWidth: 4, bucketCount: 32)
        for value in values { whole.add(value) }
        var left = ProfileHistogram(bucketWidth: 4, bucketCount: 32)
        var right = ProfileHistogram(bucketWidth: 4, bucketCount: 32)
        for value in values.prefix(4) { left.add(value) }
        for value in values.dropFirst(4) { right.add(value) }
        var merged = right
        merged.merge(left)
        #expect(merged == whole)
        left.merge(right)
        #expect(left == whole)
    }

    @Test func barsRegroupBucketsUpToTheMaximumAndShowOverflow() {
        var histogram = ProfileHistogram(bucketWidth: 1, bucketCount: 10)
        for value in [0, 1, 2, 3, 5, 50] { histogram.add(value) }
        let bars = histogram.bars(maximumBars: 5)
        #expect(
            bars == [
                ProfileHistogramBar(lower: 0, upper: 1, count: 2),
                ProfileHistogramBar(lower: 2, upper: 3, count: 2),
                ProfileHistogramBar(lower: 4, upper: 5, count: 1),
                ProfileHistogramBar(lower: 6, upper: 7, count: 0),
                ProfileHistogramBar(lower: 8, upper: 9, count: 0),
                ProfileHistogramBar(lower: 10, upper: nil, count: 1),
            ])
        var months = ProfileHistogram(bucketWidth: 1, bucketCount: 480)
        months.add(206)
        months.add(208)
        #expect(months.bars(maximumBars: 40, startingAtMinimum: true).map(\.lower) == [206, 207, 208])
    }

    @Test func quantileTextShowsTheValueOnlyWhereItIsExactAndTheBucketOtherwise() {
        var exact = ProfileHistogram(bucketWidth: 1, bucketCount: 100)
        for value in 1...10 { exact.add(value) }
        #expect(exact.quantileText(0.5) == "5")
        var bucketed = ProfileHistogram(bucketWidth: 10, bucketCount: 100)
        for value in [121, 124, 128, 300] { bucketed.add(value) }
        #expect(bucketed.quantile(0.5) == 121)  // the raw figure is the bucket's edge, clipped to the minimum
        #expect(bucketed.quantileText(0.5) == "121–129")
        var overflowing = ProfileHistogram(bucketWidth: 1, bucketCount: 4)
        for value in [1, 9, 9] { overflowing.add(value) }
        #expect(overflowing.quantileText(0.5) == "≥ 4")
        #expect(ProfileHistogram(bucketWidth: 1, bucketCount: 4).quantileText(0.5) == "–")
    }

    @Test func chartsHaveAYAxisLabelledInDrawings() {
        var histogram = ProfileHistogram(bucketWidth: 1, bucketCount: 10)
        for value in [1, 2, 2, 2, 3, 3] { histogram.add(value) }
        let svg = StatsSVGHistogram.svg(histogram, title: "strokes")
        #expect(svg.contains(">drawings</text>"))
        for tick in ["0", "1", "3"] {  // 0, half of the tallest bar (3 / 2 = 1) and the tallest
            #expect(svg.contains("text-anchor=\"end\">\(tick)</text>"))
        }
        #expect(svg.contains("<title>2: 3 drawings</title>"))
        #expect(!svg.contains("max bar"))
    }
}
