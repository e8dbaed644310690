import Foundation

/// Draws a `ProfileHistogram` as a small inline SVG bar chart (no script, no external files).
package enum StatsSVGHistogram {
    /// Chart size in CSS pixels.
    static let width = 340, height = 150
    /// Bars at most.
    static let maximumBars = 40

    /// The chart of `histogram` titled `title`; `label` names a value on the axis, and `marker`
    /// (a value) draws a dashed line at the bar holding it, captioned `markerCaption`.
    package static func svg(
        _ histogram: ProfileHistogram, title: String, startingAtMinimum: Bool = false,
        label: (Int) -> String = { String($0) }, marker: Int? = nil, markerCaption: String = ""
    ) -> String {
        let bars = histogram.bars(maximumBars: maximumBars, startingAtMinimum: startingAtMinimum)
        let left = 46.0
        let right = Double(width) - 8
        let top = 22.0
        let bottom = Double(height) - 20
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">"
        svg += "<title>\(escape(title))</title>"
        svg += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#fff\"/>"
        svg += "<text x=\"8\" y=\"14\" font-size=\"12\" font-family=\"sans-serif\" fill=\"#222\">\(escape(title))</text>"
        guard !bars.isEmpty else {
            return svg
                + "<text x=\"\(left)\" y=\"\(Int(bottom))\" font-size=\"11\" font-family=\"sans-serif\" fill=\"#888\">no data</text></svg>"
        }
        let tallest = bars.map(\.count).max() ?? 0
        let slot = (right - left) / Double(bars.count)
        for (index, bar) in bars.enumerated() {
            let barHeight = tallest > 0 ? (bottom - top) * Double(bar.count) / Double(tallest) : 0
            let range = bar.upper.map { $0 == bar.lower ? label(bar.lower) : "\(label(bar.lower))–\(label($0))" } ?? "≥ \(label(bar.lower))"
            svg +=
                "<rect x=\(format(left + Double(index) * slot + 0.5)) y=\(format(bottom - barHeight))"
                + " width=\(format(max(slot - 1, 0.5))) height=\(format(barHeight)) fill=\"\(bar.upper == nil ? "#c66" : "#4a78b5")\">"
                + "<title>\(escape(range)): \(bar.count) drawings</title></rect>"
        }
        svg += yAxis(tallest: tallest, x: left, top: top, bottom: bottom)
        svg += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(right)\" y2=\"\(bottom)\" stroke=\"#888\"/>"
        svg +=
            "<text x=\"\(left)\" y=\"\(height - 5)\" font-size=\"10\" font-family=\"sans-serif\" fill=\"#444\">\(escape(label(bars[0].lower)))</text>"
        let lastLabel = bars.last!.upper.map(label) ?? "≥ \(label(bars.last!.lower))"
        svg +=
            "<text x=\"\(right)\" y=\"\(height - 5)\" font-size=\"10\" font-family=\"sans-serif\" fill=\"#444\" text-anchor=\"end\">\(escape(lastLabel))</text>"
        if let marker, let index = bars.firstIndex(where: { marker >= $0.lower && marker <= ($0.upper ?? Int.max) }) {
            let x = format(left + Double(index) * slot)
            svg += "<line x1=\(x) y1=\"\(top)\" x2=\(x) y2=\"\(bottom)\" stroke=\"#d22\" stroke-dasharray=\"3,2\"/>"
            svg +=
                "<text x=\(x) y=\"\(top + 10)\" font-size=\"10\" font-family=\"sans-serif\" fill=\"#d22\" dx=\"3\">\(escape(markerCaption))</text>"
        }
        return svg + "</svg>"
    }

    /// The y axis at `x`: a line from `bottom` (0 drawings) to `top` (`tallest`), ticks labelled
    /// 0, half and `tallest` drawings, and the unit.
    private static func yAxis(tallest: Int, x: Double, top: Double, bottom: Double) -> String {
        var axis = "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(bottom)\" stroke=\"#888\"/>"
        let ticks = tallest >= 2 ? [0, tallest / 2, tallest] : [0, tallest]
        for value in Set(ticks).sorted() {
            let y = format(bottom - (tallest > 0 ? (bottom - top) * Double(value) / Double(tallest) : 0))
            axis += "<line x1=\"\(x - 3)\" y1=\(y) x2=\"\(x)\" y2=\(y) stroke=\"#888\"/>"
            axis +=
                "<text x=\"\(x - 5)\" y=\(y) dy=\"3\" font-size=\"10\" font-family=\"sans-serif\" fill=\"#444\" text-anchor=\"end\">\(value)</text>"
        }
        // The unit, written upwards along the left edge, clear of the title and the tick labels.
        return axis + "<text transform=\"translate(10,\(Int((top + bottom) / 2))) rotate(-90)\" font-size=\"9\" "
            + "font-family=\"sans-serif\" fill=\"#666\" text-anchor=\"middle\">drawings</text>"
    }

    /// A quoted SVG coordinate with one decimal.
    private static func format(_ value: Double) -> String { "\"" + String(format: "%.1f", value) + "\"" }

    /// Escaped for HTML and SVG (``HTMLText``).
    package static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
