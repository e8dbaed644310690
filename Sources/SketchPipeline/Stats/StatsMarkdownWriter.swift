import Foundation
import SketchReports

/// Writes `stats.md`: totals, one table row per category, rejected lines and duplicates.
package enum StatsMarkdownWriter {
    /// The Markdown profile of `profile` over `inputs`.
    package static func markdown(_ profile: DatasetProfile, inputs: [String]) -> String {
        let tally = profile.tally
        var lines = [
            "# Dataset profile",
            "",
            "Inputs: \(inputs.count) \(inputs.count == 1 ? "file" : "files"). \(tally).",
            "",
            "- Drawings: \(tally.written) in \(profile.categories.count) categories (\(profile.rawDrawings) raw, simplified with Google's rule before profiling).",
            "- Truncated at length \(profile.length): \(profile.truncated) (\(percent(profile.truncated, of: tally.written))) — drawings with more than \(profile.length + 1) simplified points.",
            "- Duplicate key_ids: \(profile.duplicates.records) extra records over \(profile.duplicates.keys) key_ids.",
            "- Rejected lines: \(tally.rejected).",
            "",
            "## Categories",
            "",
        ]
        lines += MarkdownTable.header(
            [
                "category", "drawings", "recognized", "countries (top 3)", "strokes median", "points median", "points p90",
                "truncated at \(profile.length)", "raw points median",
            ],
            [.left, .right, .right, .left, .right, .right, .right, .right, .right])
        for (word, category) in profile.sortedCategories {
            let cells: [String] = [
                word,
                String(category.drawings),
                percent(category.recognized, of: category.drawings),
                topCountries(category.countries),
                category.strokes.quantileText(0.5),
                category.points.quantileText(0.5),
                category.points.quantileText(0.9),
                "\(category.truncated) (\(percent(category.truncated, of: category.drawings)))",
                category.rawPoints.quantileText(0.5),
            ]
            lines.append(MarkdownTable.row(cells))
        }
        lines += ["", quantileNote, "", "## Rejected lines", ""]
        if profile.rejectedByReason.isEmpty {
            lines.append("None.")
        } else {
            lines += MarkdownTable.header(["reason", "lines"], [.left, .right])
            for (reason, count) in byCountDescending(profile.rejectedByReason) {
                lines.append(MarkdownTable.row([reason, String(count)]))
            }
            lines += ["", "Every rejected line is in `\(StatsJob.quarantineName)`, verbatim."]
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// `part / whole` as a percentage with one decimal (`–` when `whole` is 0).
    package static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "–" : String(format: "%.1f %%", 100 * Double(part) / Double(whole))
    }

    /// `value` as text, `–` when nil.
    /// What the medians and p90s of the category tables are (`ProfileHistogram.quantileText`).
    package static let quantileNote =
        "Medians and p90 are nearest-rank values: exact for strokes and simplified points "
        + "(counted one by one), the bucket's range for raw points (counted in buckets of 10); ≥ N: past the histogram's last bucket."

    /// Entries by count, largest first, then by key in byte order.
    package static func byCountDescending(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { (a: (key: String, value: Int), b: (key: String, value: Int)) -> Bool in
            if a.value != b.value { return a.value > b.value }
            return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
    }

    /// The three most frequent countries with their counts, e.g. `US 80, GB 9, DE 3`.
    package static func topCountries(_ countries: [String: Int], limit: Int = 3) -> String {
        byCountDescending(countries).prefix(limit)
            .map { "\($0.key.isEmpty ? "(none)" : $0.key) \($0.value)" }.joined(separator: ", ")
    }
}
