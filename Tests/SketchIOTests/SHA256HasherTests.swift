import SketchIO
import Testing

@Test func sha256MatchesFIPSTestVectors() {
    #expect(SHA256Hasher.hash([]).hexString == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
        SHA256Hasher.hash(Array("abc".utf8)).hexString
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
        SHA256Hasher.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
        SHA256Hasher.hash([UInt8](repeating: 0x61, count: 1_000_000)).hexString
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
}

@Test func sha256StreamingInOddPiecesEqualsOneShot() {
    let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
    var streaming = SHA256Hasher()
    var offset = 0
    for size in [1, 63, 64, 65, 127, 3000] {
        streaming.update(Array(bytes[offset..<min(offset + size, bytes.count)]))
        offset += size
    }
    streaming.update(Array(bytes[min(offset, bytes.count)...]))
    #expect(streaming.finalize() == SHA256Hasher.hash(bytes))
}
