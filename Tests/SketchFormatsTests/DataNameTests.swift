import Testing

@testable import SketchFormats

@Suite struct DataNameTests {
    @Test func wordsThatDifferOnlyByNormalizationAlwaysCollideAndTheLaterInByteOrderLoses() {
        let nfc = "caf\u{E9}"
        let nfd = "cafe\u{301}"
        let words = [nfc, nfd, "dog"].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let (kept, colliding) = DataName.separateCollisions(words, caseInsensitive: false)
        #expect(kept.map { Array($0.utf8) } == [Array(nfd.utf8), Array("dog".utf8)])
        #expect(colliding[Array(nfc.utf8)].map { Array($0.utf8) } == Array(nfd.utf8))
    }

    @Test func wordsThatDifferOnlyByCaseCollideOnlyWhereWordsNameFiles() {
        let words = ["Cat", "cat", "dog"]
        #expect(DataName.separateCollisions(words, caseInsensitive: false).kept == words)
        let (kept, colliding) = DataName.separateCollisions(words, caseInsensitive: true)
        #expect(kept == ["Cat", "dog"])
        #expect(colliding[Array("cat".utf8)] == "Cat")
    }

    @Test func quotedTextEscapesEveryControlCharacter() {
        #expect(DataName.quoted("a\u{1B}[31m\n\u{85}\"\u{202E}") == #""a\u{1B}[31m\u{A}\u{85}\"\u{202E}""#)
    }

    @Test func classWordsKeepNormalizationTwinsApartAndSortByBytes() {
        let words = ClassWords(["b", "cafe\u{301}", "caf\u{E9}", "a", "b"])
        #expect(words.count == 4)
        #expect(words.sorted.map { Array($0.utf8) } == ["a", "b", "cafe\u{301}", "caf\u{E9}"].map { Array($0.utf8) })
    }
}
