import SketchReports
import Testing

@Suite struct MarkdownTableTests {
    @Test("a header is its row and an alignment line; columns are left-aligned unless named right")
    func headerWritesTheAlignmentLine() {
        #expect(MarkdownTable.header(["class", "count", "note"], [.left, .right]) == ["| class | count | note |", "|---|---:|---|"])
        #expect(MarkdownTable.header(["a", "b"]) == ["| a | b |", "|---|---|"])
    }

    @Test("every cell of a row is escaped, so a pipe or a newline from data cannot split the row")
    func cellsAreEscaped() {
        #expect(MarkdownTable.row(["a|b", "1"]) == "| a&#124;b | 1 |")
        #expect(MarkdownTable.row(["a\nb"]) == "| a&#10;b |")
    }
}
