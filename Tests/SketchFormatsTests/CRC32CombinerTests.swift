import SketchFormats
import Testing

@Suite struct CRC32CombinerTests {
    @Test func combiningPiecesGivesTheCRCOfTheirConcatenationAtEveryLengthCachedOrNot() {
        var combiner = CRC32Combiner()
        // Lengths repeat (cached operators reused) and pass the cache's bound (made each time).
        for length in [0, 1, 7, 249, 249, 1_000, 65_535, 65_536, 70_001, 1] {
            let a = (0..<(length % 97 + 3)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ length) }
            let b = (0..<length).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
            let combined = combiner.combine(CRC32.checksum(a), CRC32.checksum(b), length: b.count)
            #expect(combined == CRC32.checksum(a + b), "length \(length)")
        }
    }
}
