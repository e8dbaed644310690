/// Markdown tables of the report pages (`stats.md`, the eval `report.md`, the parity report): one
/// line a row, cells between `| ` and ` |`; every cell is text, escaped by `MarkdownText`.
package enum MarkdownTable {
    /// How a column's cells align, written in the line under the header.
    package enum Alignment: String, Sendable {
        /// Left (Markdown's default).
        case left = "---"
        /// Right, for numbers.
        case right = "---:"
    }

    /// The header line of `columns` and the alignment line under it; columns are left-aligned
    /// unless `alignments` names theirs.
    package static func header(_ columns: [String], _ alignments: [Alignment] = []) -> [String] {
        let marks = columns.indices.map { alignments.indices.contains($0) ? alignments[$0] : .left }
        return [row(columns), "|" + marks.map(\.rawValue).joined(separator: "|") + "|"]
    }

    /// One row: `| a | b |`, each cell escaped (`MarkdownText.escaped`), so a cell holding text
    /// from data shows that text and cannot split its row or hold markup.
    package static func row(_ cells: [String]) -> String {
        "| " + cells.map(MarkdownText.escaped).joined(separator: " | ") + " |"
    }
}
