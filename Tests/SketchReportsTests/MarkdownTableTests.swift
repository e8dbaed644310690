import SketchReports
import Testing

@Suite struct MarkdownTableTests {
    @Test("a header is its row and an alignment line; columns are left-aligned unless named right")
    func headerWritesTheAlignmentLine() {
        #expect(MarkdownTable.header(["class", "count", "note"], [.left, .right]) == ["| class | count | note |", "|---|---:|---|"])
        #expect(MarkdownTable.header(["a", "b"]) == ["| a | b |", "|---|---|"])
    }

    @Test("a pipe in a cell from data is escaped, so the row keeps its columns")
    func pipesInCellsAreEscaped() {
        #expect(MarkdownTable.row([MarkdownTable.cell("a|b"), "1"]) == "| a\\|b | 1 |")
    }
}
