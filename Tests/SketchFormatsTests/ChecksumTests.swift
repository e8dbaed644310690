import Testing
@testable import SketchFormats

@Test func crc32cMatchesPublishedCheckValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
}

@Test func crc32cMatchesRFC3720TestVectors() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
}

@Test func crc32cContinuesAcrossPieces() {
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let whole = CRC32C.checksum(bytes)
    let first = CRC32C.checksum(Array(bytes[..<13]))
    #expect(CRC32C.checksum(Array(bytes[13...]), continuing: first) == whole)
}

@Test func maskedCRCRotatesAndAddsTheTFRecordConstant() {
    #expect(CRC32C.masked(0) == 0xA282_EAD8)
    #expect(CRC32C.masked(0x0000_8000) == 0xA282_EAD9)
}
