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

@Test func crc32cOfLongBuffersMatchesTheBitwiseDefinitionAroundTheInterleavedBlockSizes() {
    // Buffers of 12 KiB and more run through three interleaved streams whose CRCs are combined.
    func bitwise(_ bytes: ArraySlice<UInt8>, _ start: UInt32) -> UInt32 {
        var crc = ~start
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
    var state: UInt32 = 12345
    let bytes = (0..<40_000).map { _ in
        state = state &* 1_103_515_245 &+ 12345
        return UInt8(truncatingIfNeeded: state >> 16)
    }
    for (offset, count) in [(0, 12_288), (3, 12_288), (5, 12_289), (1, 24_575), (7, 36_870), (0, 39_990)] {
        let slice = bytes[offset..<(offset + count)]
        #expect(CRC32C.checksum(Array(slice), continuing: 0xDEAD_BEEF) == bitwise(slice, 0xDEAD_BEEF), "\(offset) + \(count)")
    }
}

@Test func maskedCRCRotatesAndAddsTheTFRecordConstant() {
    #expect(CRC32C.masked(0) == 0xA282_EAD8)
    #expect(CRC32C.masked(0x0000_8000) == 0xA282_EAD9)
}

@Test func crc32cCombineEqualsTheChecksumOfTheConcatenation() {
    let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for cut in [0, 1, 7, 8, 13, 999, 4096, 5000] {
        let a = Array(bytes[..<cut])
        let b = Array(bytes[cut...])
        #expect(CRC32C.combine(CRC32C.checksum(a), CRC32C.checksum(b), lengthB: b.count) == CRC32C.checksum(bytes), "cut \(cut)")
    }
}

@Test func aLabelAppendedToSerializedFeaturesGivesTheSameExampleAsSerializingItWithTheRest() {
    let features: [String: TFExample.Feature] = [
        "ink": .floats([1, 2.5, -3]), "shape": .int64s([1, 3]), "key_id": .bytes([Array("k".utf8)]),
    ]
    for label: Int64 in [0, 5, 127, 128, 300, 1 << 40] {
        var entries = TFExample(features: features).serializedFeatureEntries()
        TFExample.appendInt64Entry(name: Array("class_index".utf8), value: label, to: &entries)
        var withLabel = features
        withLabel["class_index"] = .int64s([label])
        // The same map entries, the label's last instead of in key order.
        let single = TFExample(features: ["class_index": .int64s([label])]).serializedFeatureEntries()
        #expect(entries == TFExample(features: features).serializedFeatureEntries() + single)
        #expect(TFExample(features: withLabel).serialized().count == 1 + ProtobufWire.varintLength(UInt64(entries.count)) + entries.count)
    }
}
