import Foundation
import SketchCore
import SketchDataset
import SketchFormats
import SketchReports

/// The report of `sketchprep parity`, as JSON (`Encodable`), Markdown and a summary line.
package struct ParityReport: Encodable {
    /// Per-category counts.
    package struct Category: Encodable {
        var pairs: Int
        var exact: Int
        var exactRate: Double

        enum CodingKeys: String, CodingKey {
            case pairs, exact
            case exactRate = "exact_rate"
        }
    }

    package var pairs: Int
    var exact: Int
    package var exactRate: Double
    var samePointCount: Int
    var samePointCountRate: Double
    var unmatchedRaw: Int
    var unmatchedOfficial: Int
    var duplicateOfficial: DuplicateKeys
    var duplicateRaw: DuplicateKeys
    /// Which record of a repeated key_id the join uses.
    let duplicatesUse = "first"
    var rawTally: SideCounts
    var officialTally: SideCounts
    var deviationHistogram: [String: Int]
    package var worst: [ParityComparison.Miss]
    var categories: [String: Category]
    var options: [String: String]

    package init(
        comparison: ParityComparison, unmatchedRaw: Int, unmatchedOfficial: Int,
        duplicateOfficial: DuplicateKeys, duplicateRaw: DuplicateKeys,
        rawTally: RecordCounts, officialTally: RecordCounts, options: SimplificationOptions
    ) {
        pairs = comparison.pairs
        exact = comparison.exact
        exactRate = comparison.exactRate
        samePointCount = comparison.samePointCount
        samePointCountRate = comparison.samePointCountRate
        self.unmatchedRaw = unmatchedRaw
        self.unmatchedOfficial = unmatchedOfficial
        self.duplicateOfficial = duplicateOfficial
        self.duplicateRaw = duplicateRaw
        self.rawTally = SideCounts(counts: rawTally)
        self.officialTally = SideCounts(counts: officialTally)
        deviationHistogram = comparison.deviationHistogram
        worst = comparison.worst
        categories = comparison.byCategory.mapValues {
            Category(pairs: $0.pairs, exact: $0.exact, exactRate: Double($0.exact) / Double($0.pairs))
        }
        self.options = options.reportFields
    }

    enum CodingKeys: String, CodingKey {
        case pairs, exact, worst, categories, options
        case exactRate = "exact_rate"
        case samePointCount = "same_point_count"
        case samePointCountRate = "same_point_count_rate"
        case unmatchedRaw = "unmatched_raw"
        case unmatchedOfficial = "unmatched_official"
        case duplicateOfficial = "duplicate_official_key_ids"
        case duplicateRaw = "duplicate_raw_key_ids"
        case duplicatesUse = "duplicates_use"
        case rawTally = "raw_records"
        case officialTally = "official_records"
        case deviationHistogram = "deviation_histogram"
    }

    /// Why the run fails although it read its inputs, or nil: a parity that compared no drawing (no
    /// key_id on both sides) measures nothing, so it does not succeed (`RecordCounts.failure`'s rule).
    package var failure: String? {
        guard pairs == 0 else { return nil }
        return "no drawing was compared: no key_id is on both sides (raw \(rawTally), official \(officialTally)); "
            + "--raw and --simplified must hold the same drawings"
    }

    /// A warning when compared `--raw` drawings were already simplified (``ParityJob/Result/rawAlreadySimplified``),
    /// or nil.
    package static func alreadySimplifiedWarning(_ count: Int, pairs: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(count) of the \(pairs) compared --raw drawings are already simplified (a .bin, or NDJSON without t "
            + "arrays whose coordinates are integers in 0…255; docs/formats.md): parity simplifies them again, so the "
            + "rates say nothing about Google's rule; give Google's raw files as --raw"
    }

    /// `12.34 %`.
    package static func percent(_ rate: Double) -> String { String(format: "%.2f %%", rate * 100) }

    /// Histogram buckets in display order.
    static let bucketOrder = ["0", "1", "2", "3-5", "6-10", ">10", "point count differs"]

    /// A few lines for the terminal.
    package var summary: String {
        """
        parity: \(pairs) pairs joined by key_id; exact \(exact) (\(Self.percent(exactRate))); \
        same point count \(samePointCount) (\(Self.percent(samePointCountRate)))
        parity: unmatched raw \(unmatchedRaw), unmatched official \(unmatchedOfficial); \
        raw \(rawTally), official \(officialTally)\(duplicateSummary)
        """
    }

    /// The repeated key_ids line of the summary, or nothing when there are none.
    private var duplicateSummary: String {
        guard duplicateRaw.count + duplicateOfficial.count > 0 else { return "" }
        func side(_ name: String, _ keys: DuplicateKeys) -> String {
            keys.count == 0 ? "\(name) 0" : "\(name) \(keys.count) (e.g. \(keys.examples.prefix(3).joined(separator: ", ")))"
        }
        return "\nparity: repeated key_ids skipped (the \(duplicatesUse) record of each is used): "
            + "\(side("raw", duplicateRaw)), \(side("official", duplicateOfficial))"
    }

    /// The Markdown report.
    package var markdown: String {
        var lines = ["# Parity: our simplification vs Google's simplified drawings", ""]
        lines += MarkdownTable.header(["measure", "value"])
        lines += [
            ["pairs joined by key_id", "\(pairs)"],
            ["exact drawings", "\(exact) (\(Self.percent(exactRate)))"],
            ["same point count", "\(samePointCount) (\(Self.percent(samePointCountRate)))"],
            ["unmatched raw / official", "\(unmatchedRaw) / \(unmatchedOfficial)"],
            ["repeated key_ids skipped, raw / official (first used)", "\(duplicateRaw.count) / \(duplicateOfficial.count)"],
            ["raw records", "\(rawTally)"],
            ["official records", "\(officialTally)"],
            ["options", options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")],
        ].map(MarkdownTable.row)
        lines += ["", "## Largest coordinate deviation per drawing", ""] + MarkdownTable.header(["deviation", "drawings"])
        lines += Self.bucketOrder.map { MarkdownTable.row([$0, "\(deviationHistogram[$0] ?? 0)"]) }
        lines +=
            ["", "## Worst drawings", ""]
            + MarkdownTable.header(["key_id", "category", "kind", "point-count difference", "max deviation"])
        lines += worst.map {
            MarkdownTable.row([$0.keyID, $0.word, "\($0.kind)", "\($0.pointCountDifference)", "\($0.maximumDeviation)"])
        }
        lines += ["", "## Categories with the lowest exact rate", ""] + MarkdownTable.header(["category", "pairs", "exact", "rate"])
        let lowest = categories.sorted {
            $0.value.exactRate != $1.value.exactRate ? $0.value.exactRate < $1.value.exactRate : $0.key < $1.key
        }.prefix(15)
        lines += lowest.map { word, category in
            MarkdownTable.row([word, "\(category.pairs)", "\(category.exact)", Self.percent(category.exactRate)])
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One side's `RecordCounts` in the parity report: `read`, `written`, `rejected` and
/// `source_errors` (nothing is filtered in parity, so the report keeps its published keys).
package struct SideCounts: Encodable, CustomStringConvertible {
    var counts: RecordCounts

    package var description: String { counts.description }

    private enum CodingKeys: String, CodingKey {
        case read, written, rejected
        case sourceErrors = "source_errors"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(counts.read, forKey: .read)
        try container.encode(counts.written, forKey: .written)
        try container.encode(counts.rejected, forKey: .rejected)
        try container.encode(counts.sourceErrors, forKey: .sourceErrors)
    }
}
