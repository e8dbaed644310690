#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The small zip subset `.npz` files use: entries stored (method 0) or deflated (method 8),
/// no zip64, no encryption, read through the central directory.
///
/// Written archives are deterministic: entries in the given order, deflated by the caller
/// (`Stroke3NPZAssembler`: pieces deflated apart and joined into one stream), every entry dated
/// 1980-01-01 00:00:00 (the zip epoch), no extra fields, no comment. An archive
/// is read and written whole in memory (one `.npz` per category).
///
/// Reading is bounded before anything is inflated: at most ``maximumEntryCount`` entries, each
/// claiming at most ``maximumEntryBytes`` and all together at most ``maximumArchiveBytes``
/// inflated bytes; entries whose local records overlap or whose names repeat are refused (a zip
/// bomb that points many directory entries at one deflated member); docs/limits.md.
package enum ZipArchive {
    /// Most entries an archive may list (a stroke-3 `.npz` has three).
    package static let maximumEntryCount = 64
    /// Most bytes one entry may inflate to: 128 MiB (the published sketch-rnn files' largest
    /// entry inflates to 6.6 MB).
    package static let maximumEntryBytes = 128 << 20
    /// Most bytes all entries of an archive may inflate to together: 128 MiB.
    package static let maximumArchiveBytes = 128 << 20

    /// One entry to write: its name, its contents' raw deflate stream (ended with a final block),
    /// and the contents' size and CRC-32.
    package struct Entry {
        package var name: String
        package var deflated: [UInt8]
        package var size: Int
        package var crc: UInt32

        package init(name: String, deflated: [UInt8], size: Int, crc: UInt32) {
            (self.name, self.deflated, self.size, self.crc) = (name, deflated, size, crc)
        }
    }

    /// The bytes of an archive holding `entries` (deflated, method 8) in that order.
    package static func encode(_ entries: [Entry], path: String) throws(FormatError) -> [UInt8] {
        var archive: [UInt8] = []
        // Every entry's bytes are copied once: the archive is sized up front (headers ≤ 64 + name bytes each).
        archive.reserveCapacity(entries.reduce(22) { $0 + $1.deflated.count + 2 * (64 + $1.name.utf8.count) })
        var central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let compressed = entry.deflated
            let crc = entry.crc
            let offset = archive.count
            guard entry.size < Int(UInt32.max), compressed.count < Int(UInt32.max),
                archive.count + compressed.count < Int(UInt32.max)
            else {
                throw FormatError.zip(path: path, reason: "entry \(entry.name) is larger than a zip without zip64 holds (4 GiB)")
            }
            // Local file header.
            append32(0x0403_4b50, &archive)
            append16(20, &archive)
            append16(0, &archive)
            append16(8, &archive)
            append16(0, &archive)
            append16(0x21, &archive)  // 00:00:00, 1980-01-01
            append32(crc, &archive)
            append32(UInt32(compressed.count), &archive)
            append32(UInt32(entry.size), &archive)
            append16(UInt16(name.count), &archive)
            append16(0, &archive)
            archive += name
            archive += compressed
            // Central directory record.
            append32(0x0201_4b50, &central)
            append16(20, &central)
            append16(20, &central)
            append16(0, &central)
            append16(8, &central)
            append16(0, &central)
            append16(0x21, &central)
            append32(crc, &central)
            append32(UInt32(compressed.count), &central)
            append32(UInt32(entry.size), &central)
            append16(UInt16(name.count), &central)
            append16(0, &central)
            append16(0, &central)
            append16(0, &central)
            append16(0, &central)
            append32(0, &central)
            append32(UInt32(offset), &central)
            central += name
        }
        let centralOffset = archive.count
        archive += central
        append32(0x0605_4b50, &archive)
        append16(0, &archive)
        append16(0, &archive)
        append16(UInt16(entries.count), &archive)
        append16(UInt16(entries.count), &archive)
        append32(UInt32(central.count), &archive)
        append32(UInt32(centralOffset), &archive)
        append16(0, &archive)
        return archive
    }

    /// The entries (name, contents) of the archive `bytes`, in central-directory order; CRCs are
    /// checked, and the caps above are checked from the central directory before any entry is
    /// inflated.
    package static func decode(_ bytes: [UInt8], path: String) throws(FormatError) -> [(name: String, contents: [UInt8])] {
        func fail(_ reason: String) -> FormatError { FormatError.zip(path: path, reason: reason) }
        let directory = try centralDirectory(bytes, fail: fail)
        var entries: [(name: String, contents: [UInt8])] = []
        for entry in directory {
            let contents: [UInt8]
            switch entry.method {
            case 0: contents = Array(bytes[entry.data])
            case 8: contents = try inflateRaw(bytes[entry.data], expectedSize: entry.size, path: path, name: entry.name)
            default: throw fail("entry \(entry.name) uses compression method \(entry.method) (only stored and deflated are supported)")
            }
            guard contents.count == entry.size else {
                throw fail("entry \(entry.name) inflates to \(contents.count) bytes, not \(entry.size)")
            }
            let actual = CRC32.checksum(contents)
            guard actual == entry.crc else { throw fail("entry \(entry.name) fails its CRC-32 check") }
            entries.append((entry.name, contents))
        }
        return entries
    }

    /// One central-directory entry, checked against the archive's bounds.
    private struct DirectoryEntry {
        var name: String
        var method: Int
        var crc: UInt32
        var size: Int
        /// The local record (header through data), for the overlap check.
        var record: Range<Int>
        /// The stored (possibly deflated) bytes.
        var data: Range<Int>
    }

    /// The central directory of `bytes`: every entry's ranges inside the archive, names distinct,
    /// local records disjoint, claimed sizes within the caps.
    private static func centralDirectory(_ bytes: [UInt8], fail: (String) -> FormatError) throws(FormatError) -> [DirectoryEntry] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 22 else { throw fail("not a zip archive (shorter than an end-of-central-directory record)") }
        var end = -1
        var at = bytes.count - 22
        while at >= max(0, bytes.count - 22 - 65_535) {
            if bytes[at] == 0x50, bytes[at + 1] == 0x4b, bytes[at + 2] == 5, bytes[at + 3] == 6 {
                end = at
                break
            }
            at -= 1
        }
        guard end >= 0 else { throw fail("not a zip archive (no end-of-central-directory record)") }
        let count = u16(end + 10)
        let centralSize = u32(end + 12)
        var cursor = u32(end + 16)
        guard count != 0xFFFF, cursor != 0xFFFF_FFFF, cursor + centralSize <= end else {
            throw fail("zip64 or inconsistent central directory (not supported)")
        }
        guard count <= maximumEntryCount else {
            throw fail("the archive lists \(count) entries, more than \(maximumEntryCount) (ZipArchive.maximumEntryCount, docs/limits.md)")
        }
        var entries: [DirectoryEntry] = []
        var names = Set<String>()
        var total = 0
        for index in 0..<count {
            guard cursor + 46 <= end, u32(cursor) == 0x0201_4b50 else { throw fail("central directory entry \(index + 1) is damaged") }
            let flags = u16(cursor + 8)
            let method = u16(cursor + 10)
            let crc = UInt32(u32(cursor + 16))
            let compressedSize = u32(cursor + 20)
            let size = u32(cursor + 24)
            let nameLength = u16(cursor + 28)
            let extraLength = u16(cursor + 30)
            let commentLength = u16(cursor + 32)
            let localOffset = u32(cursor + 42)
            guard cursor + 46 + nameLength <= end else { throw fail("central directory entry \(index + 1) is damaged") }
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            cursor += 46 + nameLength + extraLength + commentLength
            guard names.insert(name).inserted else { throw fail("entry \(name) is listed twice") }
            guard flags & 1 == 0 else { throw fail("entry \(name) is encrypted (not supported)") }
            guard localOffset + 30 <= bytes.count, u32(localOffset) == 0x0403_4b50 else {
                throw fail("entry \(name): local header at byte offset \(localOffset) is damaged")
            }
            let dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28)
            guard dataStart + compressedSize <= bytes.count else { throw fail("entry \(name) is truncated") }
            // Deflate expands at most about 1032:1; a larger claimed size is refused before allocating.
            guard method == 0 ? size == compressedSize : size <= compressedSize * 1032 + 64 else {
                throw fail("entry \(name) claims \(size) bytes from \(compressedSize) compressed bytes")
            }
            guard size <= maximumEntryBytes else {
                throw fail(
                    "entry \(name) inflates to \(size) bytes, more than \(maximumEntryBytes) (ZipArchive.maximumEntryBytes, docs/limits.md)"
                )
            }
            total += size
            guard total <= maximumArchiveBytes else {
                throw fail(
                    "the entries inflate to more than \(maximumArchiveBytes) bytes together (ZipArchive.maximumArchiveBytes, docs/limits.md)"
                )
            }
            entries.append(
                DirectoryEntry(
                    name: name, method: method, crc: crc, size: size,
                    record: localOffset..<(dataStart + compressedSize),
                    data: dataStart..<(dataStart + compressedSize)))
        }
        let byOffset = entries.sorted { $0.record.lowerBound < $1.record.lowerBound }
        for (earlier, later) in zip(byOffset, byOffset.dropFirst()) where later.record.lowerBound < earlier.record.upperBound {
            throw fail("entries \(earlier.name) and \(later.name) overlap in the archive (refused: a zip bomb shares one member)")
        }
        return entries
    }

    private static func inflateRaw(_ input: ArraySlice<UInt8>, expectedSize: Int, path: String, name: String) throws(FormatError) -> [UInt8]
    {
        let inflated: RawInflate.Result
        do {
            inflated = try RawInflate.inflate(input, capacity: max(expectedSize, 1))
        } catch {
            throw FormatError.zip(path: path, reason: "zlib inflate initialisation failed")
        }
        guard inflated.ended else {
            throw FormatError.zip(
                path: path, reason: "entry \(name): corrupt deflate data or size mismatch (zlib status \(inflated.status))")
        }
        return inflated.bytes
    }

    private static func append16(_ value: UInt16, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    private static func append32(_ value: UInt32, _ bytes: inout [UInt8]) {
        append16(UInt16(value & 0xFFFF), &bytes)
        append16(UInt16(value >> 16), &bytes)
    }
}
