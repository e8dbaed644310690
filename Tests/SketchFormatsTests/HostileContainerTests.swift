import CZlib
import Foundation
import SketchFormats
import Testing

/// Hostile containers (docs/limits.md, "Containers"): each test builds its own bytes and checks
/// that the reader refuses them with a reason before allocating, instead of trapping or exploding.
@Suite struct HostileContainerTests {
    /// A zip whose one deflated member (`size` zero bytes) is listed `names.count` times in the
    /// central directory, every entry pointing at the same local record.
    static func zipSharingOneMember(size: Int, names: [String]) -> [UInt8] {
        let contents = [UInt8](repeating: 0, count: size)
        var stream = z_stream()
        deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        var compressed = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(size))) + 16)
        var input = contents
        input.withUnsafeMutableBufferPointer { source in
            compressed.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                _ = deflate(&stream, Z_FINISH)
            }
        }
        compressed.removeSubrange(Int(stream.total_out)...)
        deflateEnd(&stream)
        let crc = contents.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let first = Array(names[0].utf8)
        var archive =
            le(0x0403_4b50, 4) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + le(Int(crc), 4)
            + le(compressed.count, 4) + le(size, 4) + le(first.count, 2) + le(0, 2) + first + compressed
        let centralOffset = archive.count
        var central: [UInt8] = []
        for name in names.map({ Array($0.utf8) }) {
            central +=
                le(0x0201_4b50, 4) + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 4) + le(Int(crc), 4)
                + le(compressed.count, 4) + le(size, 4) + le(name.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2)
                + le(0, 4) + le(0, 4) + name
        }
        archive +=
            central + le(0x0605_4b50, 4) + le(0, 2) + le(0, 2) + le(names.count, 2) + le(names.count, 2)
            + le(central.count, 4) + le(centralOffset, 4) + le(0, 2)
        return archive
    }

    @Test("a zip bomb of 200 directory entries sharing one deflated member is refused before inflating")
    func sharedMemberBombIsRefused() {
        let bomb = Self.zipSharingOneMember(size: 1 << 20, names: (0..<200).map { "e\($0).npy" })
        let error = #expect(throws: FormatError.self) { try ZipArchive.decode(bomb, path: "bomb.npz") }
        #expect(error?.reason.contains("200 entries, more than 64") == true)
        let fewer = Self.zipSharingOneMember(size: 1 << 20, names: ["train.npy", "valid.npy", "test.npy"])
        let overlap = #expect(throws: FormatError.self) { try ZipArchive.decode(fewer, path: "bomb.npz") }
        #expect(overlap?.reason.contains("overlap") == true)
    }

    @Test("a zip listing one name twice is refused")
    func duplicateNameIsRefused() {
        let archive = Self.zipSharingOneMember(size: 10, names: ["train.npy", "train.npy"])
        let error = #expect(throws: FormatError.self) { try ZipArchive.decode(archive, path: "twice.npz") }
        #expect(error?.reason == "entry train.npy is listed twice")
    }

    @Test("an entry claiming more than the per-entry inflate cap is refused from the central directory")
    func oversizedEntryIsRefused() {
        let size = ZipArchive.maximumEntryBytes + 1
        let archive = Self.zipSharingOneMember(size: size, names: ["train.npy"])
        let error = #expect(throws: FormatError.self) { try ZipArchive.decode(archive, path: "big.npz") }
        #expect(error?.reason.contains("more than \(ZipArchive.maximumEntryBytes)") == true)
    }

    @Test("a pickle of 2 million nested tuples is refused at the nesting cap, not a stack overflow")
    func deeplyNestedTuplesAreRefused() {
        let pickle: [UInt8] = [0x80, 2, 0x29] + [UInt8](repeating: 0x85, count: 2_000_000) + [0x2E]
        let error = #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(pickle) }
        #expect(error?.reason.contains("nest deeper than \(NumpyObjectArrayPickle.maximumNestingDepth)") == true)
    }

    @Test("a list appended to itself is refused (no value may contain itself)")
    func selfContainingListIsRefused() {
        let pickle: [UInt8] = [0x80, 2, 0x5D, 0x71, 0, 0x68, 0, 0x61, 0x2E]
        let error = #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(pickle) }
        #expect(error?.reason.contains("a list item is not a numpy array") == true)
    }

    @Test("memo references that multiply one buffer's numbers stop at the value cap")
    func memoAmplificationIsRefused() {
        func text(_ string: String) -> [UInt8] { [0x8C, UInt8(string.utf8.count)] + Array(string.utf8) }
        let values = 1 << 18
        var pickle: [UInt8] = [0x80, 4]
        pickle += text("numpy._core.numeric") + text("_frombuffer") + [0x93, 0x71, 0]
        pickle +=
            [0x42] + (0..<4).map { UInt8(truncatingIfNeeded: (values * 8) >> (8 * $0)) } + [UInt8](repeating: 0, count: values * 8) + [
                0x71, 1,
            ]
        pickle += text("numpy") + text("dtype") + [0x93] + text("f8") + [0x4B, 0, 0x88, 0x87, 0x52, 0x71, 2]
        pickle += [0x4A] + (0..<4).map { UInt8(truncatingIfNeeded: values >> (8 * $0)) } + [0x4B, 1, 0x86, 0x71, 3]
        pickle += text("C") + [0x71, 4]
        let arraysOverTheCap = NumpyObjectArrayPickle.maximumValueCount / values + 1
        for _ in 0..<arraysOverTheCap { pickle += [0x68, 0, 0x28, 0x68, 1, 0x68, 2, 0x68, 3, 0x68, 4, 0x74, 0x52] }
        pickle.append(0x2E)
        let error = #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(pickle) }
        #expect(error?.reason.contains("more than \(NumpyObjectArrayPickle.maximumValueCount) numbers") == true)
    }

    @Test("an NPY header of shape (0, 2^32, 2^32) is refused: its sub-products overflow")
    func overflowingShapeIsRefused() {
        let npy = NPYFormat.header(dtype: .uint8, shape: [0, 1 << 32, 1 << 32])
        let error = #expect(throws: FormatError.self) { try NPYReader.parse(npy, path: "x.npy") }
        #expect(error?.reason == "shape [0, 4294967296, 4294967296] of uint8 is too large")
        #expect(NPYFormat.checkedProduct([3, 1 << 62]) == nil)
        #expect(NPYFormat.checkedProduct([0, 7]) == 0)
    }
}
