import SketchIO
import Testing

@Suite struct InputFileTests {
    @Test("InputFile.readAll refuses an endless stream past its cap instead of filling memory")
    func readAllCapsStreams() {
        #expect(throws: IOError.self) { try InputFile.readAll("/dev/zero", maximumBytes: 1 << 20) }
        #expect(throws: IOError.self) { try InputFile.readAll("/dev/zero") }
    }
}
