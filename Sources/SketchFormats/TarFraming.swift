/// Tar members framed straight into a byte buffer, byte for byte what ``TarArchive/encode(_:)``
/// (libarchive, `pax_restricted`, fixed headers) writes: a member whose name fits ustar's 100-byte
/// name field gets its 512-byte ustar header here; a longer name, which needs a pax extended
/// header, is framed by libarchive (``appendMember(name:contents:to:)``).
package enum TarFraming {
    /// Tar block: headers and member contents are padded to it.
    static let blockBytes = 512
    /// libarchive's default record: the archive is padded to a multiple of it.
    static let recordBytes = 10_240
    /// Longest name a ustar header holds without a prefix or pax header.
    static let ustarNameBytes = 100

    /// Appends the header of a regular-file member of `size` bytes named `name` (ASCII, no `/`), its
    /// contents from `contents`, and the padding to the next block.
    package static func appendMember(name: [UInt8], size: Int, to out: inout [UInt8], contents: (inout [UInt8]) -> Void) throws {
        guard name.count <= ustarNameBytes else {
            var bytes: [UInt8] = []
            contents(&bytes)
            out += try longNameMember(name: String(decoding: name, as: UTF8.self), contents: bytes)
            return
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: blockBytes))
        out.withUnsafeMutableBufferPointer { buffer in
            let header = UnsafeMutableBufferPointer(rebasing: buffer[start..<start + blockBytes])
            for (index, byte) in name.enumerated() { header[index] = byte }
            func field(_ offset: Int, _ text: StaticString) {
                text.withUTF8Buffer { for (index, byte) in $0.enumerated() { header[offset + index] = byte } }
            }
            field(100, "000644 \0")  // mode
            field(108, "000000 \0")  // uid
            field(116, "000000 \0")  // gid
            octal(size, digits: 11, at: 124, in: header)
            header[135] = UInt8(ascii: " ")
            field(136, "00000000000 ")  // mtime
            field(148, "        ")  // checksum, counted as spaces
            header[156] = UInt8(ascii: "0")  // regular file
            field(257, "ustar\u{0}00")
            field(329, "000000 \0")  // devmajor
            field(337, "000000 \0")  // devminor
            let checksum = header.reduce(0) { $0 + Int($1) }
            octal(checksum, digits: 6, at: 148, in: header)
            header[154] = 0
        }
        contents(&out)
        appendPadding(after: size, to: &out)
    }

    /// Appends the end of an archive of `archiveBytes` bytes so far: two zero blocks, then zeros to
    /// the next whole record.
    package static func appendEnd(archiveBytes: Int, to out: inout [UInt8]) {
        let ended = archiveBytes + 2 * blockBytes
        out.append(contentsOf: repeatElement(0, count: 2 * blockBytes + (recordBytes - ended % recordBytes) % recordBytes))
    }

    private static func appendPadding(after size: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0, count: (blockBytes - size % blockBytes) % blockBytes))
    }

    private static func octal(_ value: Int, digits: Int, at offset: Int, in header: UnsafeMutableBufferPointer<UInt8>) {
        var value = value
        for index in stride(from: offset + digits - 1, through: offset, by: -1) {
            header[index] = UInt8(ascii: "0") + UInt8(value & 7)
            value >>= 3
        }
    }

    /// libarchive's framing of one member (pax extended header, then ustar header and contents):
    /// its archive without the end blocks and record padding.
    private static func longNameMember(name: String, contents: [UInt8]) throws -> [UInt8] {
        let archive = try TarArchive.encode([(name, contents)])
        var offset = 0
        while offset + blockBytes <= archive.count {
            let header = archive[offset..<offset + blockBytes]
            let size = header[(offset + 124)..<(offset + 135)].reduce(0) { $0 * 8 + Int($1 &- UInt8(ascii: "0")) }
            let type = header[offset + 156]
            offset += blockBytes + (size + blockBytes - 1) / blockBytes * blockBytes
            if type != UInt8(ascii: "x") { return Array(archive[..<offset]) }
        }
        throw FormatError(.tar, "libarchive: no member header in the archive of \(name.prefix(40))…")
    }
}
