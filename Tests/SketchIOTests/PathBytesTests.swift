import Testing

@testable import SketchIO

/// Paths that arrive as bytes are taken only when they are UTF-8, and shown byte for byte when not.
@Suite struct PathBytesTests {
    @Test func utf8PathsDecodeAsTheyAreAndOthersDoNot() {
        #expect(PathBytes.decoded(Array("raw/caf\u{E9}/猫.ndjson".utf8)) == "raw/caf\u{E9}/猫.ndjson")
        for bytes: [UInt8] in [[0x63, 0x61, 0x66, 0xE9], [0xE7, 0x8C], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF]] {
            #expect(PathBytes.decoded(bytes) == nil, "\(bytes)")
        }
    }

    @Test func bytesBeyondASCIIAreShownAsHexAndASCIIAsItIs() {
        #expect(PathBytes.escaped(Array("a/b c.ndjson".utf8)) == "a/b c.ndjson")
        #expect(PathBytes.escaped([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x62, 0x69, 0x6E]) == "caf\\xe9.bin")
        #expect(PathBytes.escaped([0xC3, 0xA9, 0x0A]) == "\\xc3\\xa9\n")
    }

    @Test func theFirstArgumentThatIsNotUTF8IsNamedByPositionAndBytes() {
        let program: [UInt8] = [0xFF, 0x73, 0x70]  // the program name is never an argument to check
        let valid = Array("--output".utf8)
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        #expect(PathBytes.undecodableArgument([program, valid, Array("caf\u{E9}".utf8)]) == nil)
        #expect(
            PathBytes.undecodableArgument([program, valid, latin1, [0xFF]])
                == "argument 2 (caf\\xe9) is not valid UTF-8 (rename it to read it)")
        #expect(DirectoryWalk.undecodableNameReason == "file name is not valid UTF-8 (rename it to read it)")
    }
}
