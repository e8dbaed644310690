import SketchFormats
import SketchReports

/// Writes `stats.html`: one self-contained page (inline CSS, inline SVG charts, thumbnails as
/// `data:` URIs, no script) with the totals, a table of categories and a section per category.
package enum StatsHTMLWriter {
    private static let style = """
        body{font-family:sans-serif;margin:24px;color:#222;background:#fff}\
        table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px}\
        td.n{text-align:right}.charts{display:flex;flex-wrap:wrap;gap:8px}\
        .thumbs{display:flex;flex-wrap:wrap;gap:4px;margin:8px 0}.thumbs img{border:1px solid #ddd}\
        section{border-top:1px solid #ddd;margin-top:16px}
        """

    /// The HTML profile of `profile` over `inputs`, with `thumbnails` per category.
    package static func html(_ profile: DatasetProfile, inputs: [String], thumbnails: [String: [StatsThumbnail]]) -> String {
        let percent = StatsMarkdownWriter.percent
        let tally = profile.tally
        var html =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" + HTMLText.contentSecurityPolicy
            + "<title>SketchPrep dataset profile</title>"
        html += "<style>\(style)</style></head><body>\n<h1>Dataset profile</h1>\n"
        html += "<p>\(inputs.count) input \(inputs.count == 1 ? "file" : "files"); \(escape(tally.description)).</p>\n<ul>"
        html +=
            "<li>Drawings: \(tally.written) in \(profile.categories.count) categories (\(profile.rawDrawings) raw, simplified with Google's rule before profiling).</li>"
        html +=
            "<li>Truncated at length \(profile.length): \(profile.truncated) (\(escape(percent(profile.truncated, tally.written)))), drawings with more than \(profile.length + 1) simplified points.</li>"
        html += "<li>Duplicate key_ids: \(profile.duplicates.records) extra records over \(profile.duplicates.keys) key_ids.</li>"
        html += "<li>Rejected lines: \(tally.rejected).</li></ul>\n"

        var all = CategoryProfile()
        for category in profile.categories.values { all.merge(category, limit: 0) }
        html += "<h2>All categories</h2>\n" + charts(all, length: profile.length) + "\n"

        html += "<h2>Categories</h2>\n<table><tr><th>category</th><th>drawings</th><th>recognized</th><th>countries (top 3)</th>"
        html += "<th>points median</th><th>points p90</th><th>truncated at \(profile.length)</th><th>raw points median</th></tr>\n"
        for (index, (word, category)) in profile.sortedCategories.enumerated() {
            html += "<tr><td><a href=\"#c\(index)\">\(escape(word))</a></td><td class=\"n\">\(category.drawings)</td>"
            html += "<td class=\"n\">\(escape(percent(category.recognized, category.drawings)))</td>"
            html += "<td>\(escape(StatsMarkdownWriter.topCountries(category.countries)))</td>"
            html += "<td class=\"n\">\(escape(category.points.quantileText(0.5)))</td>"
            html += "<td class=\"n\">\(escape(category.points.quantileText(0.9)))</td>"
            html += "<td class=\"n\">\(category.truncated) (\(escape(percent(category.truncated, category.drawings))))</td>"
            html += "<td class=\"n\">\(escape(category.rawPoints.quantileText(0.5)))</td></tr>\n"
        }
        html += "</table>\n<p>\(escape(StatsMarkdownWriter.quantileNote))</p>\n<h2>Rejected lines</h2>\n"
        if profile.rejectedByReason.isEmpty {
            html += "<p>None.</p>\n"
        } else {
            html += "<table><tr><th>reason</th><th>lines</th></tr>"
            for (reason, count) in StatsMarkdownWriter.byCountDescending(profile.rejectedByReason) {
                html += "<tr><td>\(escape(reason))</td><td class=\"n\">\(count)</td></tr>"
            }
            html += "</table>\n<p>Every rejected line is in <code>\(StatsJob.quarantineName)</code>, verbatim.</p>\n"
        }
        for (index, (word, category)) in profile.sortedCategories.enumerated() {
            html += "<section id=\"c\(index)\"><h2>\(escape(word))</h2>"
            html += "<p>\(category.drawings) drawings, \(escape(percent(category.recognized, category.drawings))) recognized, "
            html += "\(category.countries.count) countries; truncated at \(profile.length): \(category.truncated).</p>"
            html += "<div class=\"thumbs\">"
            for thumbnail in thumbnails[word] ?? [] {
                html +=
                    "<img width=\"\(StatsThumbnails.side)\" height=\"\(StatsThumbnails.side)\" alt=\"\(escape(thumbnail.keyID))\" title=\"key_id \(escape(thumbnail.keyID))\" src=\"\(thumbnail.dataURI)\">"
            }
            html += "</div>" + charts(category, length: profile.length) + "</section>\n"
        }
        return html + "</body></html>\n"
    }

    /// The histograms of one category (or of all) as a row of SVG charts.
    private static func charts(_ category: CategoryProfile, length: Int) -> String {
        var out = "<div class=\"charts\">"
        out += StatsSVGHistogram.svg(category.strokes, title: "strokes per drawing")
        out += StatsSVGHistogram.svg(
            category.points, title: "simplified points per drawing",
            marker: length + 2, markerCaption: "truncated at \(length)")
        if category.rawPoints.count > 0 {
            out += StatsSVGHistogram.svg(category.rawPoints, title: "raw points per drawing")
        }
        out += StatsSVGHistogram.svg(category.extent, title: "extent (max of width, height) as read")
        out += StatsSVGHistogram.svg(
            category.months, title: "timestamps by month", startingAtMinimum: true,
            label: CategoryProfile.monthLabel)
        return out + "</div>"
    }

    private static func escape(_ text: String) -> String { StatsSVGHistogram.escape(text) }
}
