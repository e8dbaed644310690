import Testing

@testable import SketchFormats

@Test func locationPrintsAsFileColonLine() {
    #expect(SourceLocation(file: "a.ndjson", line: 7).description == "a.ndjson:7")
}
