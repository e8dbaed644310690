import Testing

@testable import SketchFormats

/// Members framed by ``TarFraming`` into one buffer, with the end of the archive.
private func framed(_ members: [(name: String, contents: [UInt8])]) throws -> [UInt8] {
    var out: [UInt8] = []
    for member in members {
        try TarFraming.appendMember(name: Array(member.name.utf8), size: member.contents.count, to: &out) { $0 += member.contents }
    }
    TarFraming.appendEnd(archiveBytes: out.count, to: &out)
    return out
}

@Test func tarFramingWritesLibarchivesBytesForEveryMemberSizeAndNameLength() throws {
    let sizes = [0, 1, 511, 512, 513, 10_240, 70_001]
    let names = [
        "a.cls", String(repeating: "k", count: 96) + ".npy", String(repeating: "7", count: 100),
        String(repeating: "5", count: 101), String(repeating: "~2F", count: 400) + ".json",
    ]
    for name in names {
        for size in sizes {
            let members = [(name, (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }), ("next.cls", Array("12".utf8))]
            #expect(try framed(members) == TarArchive.encode(members), "\(name.count)-byte name, \(size) bytes")
        }
    }
    #expect(try framed([]) == TarArchive.encode([]))
}
