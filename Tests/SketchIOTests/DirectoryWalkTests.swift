import SketchIO
import Testing

@Suite struct DirectoryWalkTests {
    @Test("a directory that cannot be listed is an IOError naming it")
    func unlistableDirectoryIsNamed() {
        #expect(throws: IOError.self) { try DirectoryWalk.entries(of: "/nonexistent/sketchprep-walk") }
        do {
            _ = try DirectoryWalk.entries(of: "/nonexistent/sketchprep-walk")
        } catch {
            #expect(error.description.contains("/nonexistent/sketchprep-walk"))
        }
    }
}
