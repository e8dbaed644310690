import SketchCore
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

    @Test func aRecordGetsTheReasonOfItsFirstRefusedField() {
        // recordProblem lets plain records through at once; every other one gets the reason of the
        // field-by-field checks, in their order, for any field and any text.
        let scalars =
            (0...0x7F).compactMap(Unicode.Scalar.init)
            + [0x85, 0xA0, 0xE9, 0x2028, 0x1F600].compactMap(Unicode.Scalar.init)
        var texts = [
            "", ".", "..", "...", String(repeating: "w", count: DataName.maximumWordBytes),
            String(repeating: "w", count: DataName.maximumWordBytes + 1), String(repeating: "k", count: DataName.maximumTextBytes),
            String(repeating: "k", count: DataName.maximumTextBytes + 1),
        ]
        for length in [1, 7, 8, 9, 17] {
            for place in [0, length / 2, length - 1] {
                for scalar in scalars {
                    var text = String.UnicodeScalarView((0..<length).map { _ in "a" })
                    text.replaceSubrange(
                        text.index(text.startIndex, offsetBy: place)...text.index(text.startIndex, offsetBy: place), with: [scalar])
                    texts.append(String(text))
                }
            }
        }
        let plain = ("cat", "4503599627370496", "GB", "2017-03-11 14:47:44.05242 UTC")
        for text in texts {
            for field in 0..<4 {
                var values = plain
                switch field {
                case 0: values.0 = text
                case 1: values.1 = text
                case 2: values.2 = text
                default: values.3 = text
                }
                let record = SketchRecord(
                    word: values.0, countryCode: values.2, timestamp: values.3, recognized: true, keyID: values.1,
                    drawing: Drawing(strokes: []))
                let expected =
                    DataName.wordProblem(values.0) ?? DataName.textProblem(values.1, field: "key_id")
                    ?? DataName.textProblem(values.2, field: "countrycode") ?? DataName.textProblem(values.3, field: "timestamp")
                #expect(DataName.recordProblem(record) == expected, "field \(field): \(DataName.quoted(text))")
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
