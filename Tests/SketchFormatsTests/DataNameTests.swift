import SketchIO
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

    @Test("a name is refused for a control character or, as a word, a path separator, wherever it stands")
    func namesAreRefusedForAControlCharacterAnywhere() {
        let scalars =
            (0...0x7F).compactMap(Unicode.Scalar.init)
            + [0x80, 0x85, 0x9F, 0xA0, 0xE9, 0x2028, 0xFFFD, 0x1F600].compactMap(Unicode.Scalar.init)
        for length in 1...17 {
            for place in 0..<length {
                for scalar in scalars {
                    var text = String.UnicodeScalarView((0..<length).map { _ in "a" })
                    text.replaceSubrange(
                        text.index(text.startIndex, offsetBy: place)...text.index(text.startIndex, offsetBy: place), with: [scalar])
                    let name = String(text)
                    let control = TerminalText.isControl(scalar)
                    #expect((DataName.textProblem(name, field: "key_id") != nil) == control, "\(scalar.value)")
                    let separator = scalar == "/" || scalar == "\\"
                    #expect((DataName.wordProblem(name) != nil) == (control || separator || name == "." || name == ".."), "\(scalar.value)")
                }
            }
        }
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
