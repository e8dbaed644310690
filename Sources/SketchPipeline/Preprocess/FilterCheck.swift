import SketchFormats

/// Filters that match nothing are mistakes, not empty classes: a category or country filter value
/// that matches no record read, or a category left without examples by the other filters, stops
/// the run before the dataset is written (judged after the map side; for `--partition` runs at
/// `merge`, since one partition may legitimately see no match).
enum FilterCheck {
    /// Throws `PipelineError` naming every filter value that matched nothing, with the closest
    /// names the input does have.
    static func verify(_ filters: FilterStage, map: MapOutput) throws {
        var problems: [String] = []
        if !filters.categories.isEmpty {
            let seen = map.seenWords.sorted
            let seenBytes = Set(seen.map { Array($0.utf8) })
            let kept = Set(map.words.sorted.map { Array($0.utf8) })
            for category in filters.categories {
                if !seenBytes.contains(Array(category.utf8)) {
                    problems.append("category '\(category)' matches no record\(ClosestNames.hint(for: category, among: seen))")
                } else if !kept.contains(Array(category.utf8)) {
                    problems.append(
                        "category '\(category)' has records, but none is left after the other filters (recognized_only, countries)")
                }
            }
        }
        if !filters.countries.isEmpty {
            let seen = map.seenCountries.sorted()
            for country in filters.countries where !map.seenCountries.contains(country) {
                problems.append(
                    "country '\(country)' matches no record\(ClosestNames.hint(for: country, among: seen, minimumBound: 0))"
                        + " (the input has \(seen.count) country codes, e.g. \(seen.prefix(5).joined(separator: ", ")))")
            }
        }
        guard problems.isEmpty else {
            throw PipelineError(
                .configuration,
                "filters match nothing: " + problems.joined(separator: "; ")
                    + "; no dataset was written (an empty class would get a label and no examples)")
        }
    }
}
