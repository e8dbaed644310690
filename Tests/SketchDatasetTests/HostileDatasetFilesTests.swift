import Foundation
import SketchIO
import SketchFormats
import SketchTestSupport
import Testing
@testable import SketchDataset

/// The tool's own files read back as untrusted (docs/limits.md, "Files read back"): member paths
/// and run-file framing are checked before use (verify's checks are in DatasetVerifierTests).
@Suite struct HostileDatasetFilesTests {
    @Test("member names: relative plain paths pass the lexical check, anything else names its problem")
    func memberNamesAreCheckedLexically() {
        #expect(DirectoryMember.lexicalProblem("runs/run-00000.bin") == nil)
        #expect(DirectoryMember.lexicalProblem("") == "is empty")
        #expect(DirectoryMember.lexicalProblem("a/./b") != nil)
        #expect(DirectoryMember.lexicalProblem("a//b") != nil)
        #expect(DirectoryMember.lexicalProblem("a\u{1B}b") == "holds a control character")
    }

    /// One serialized example with its fields patched by `patch` (byte offsets of the layout).
    private func serializedExample(_ patch: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var bytes: [UInt8] = []
        SortedExample(sortKey: 1, keyID: "k", chunk: 0, ordinal: 0, word: "w", split: nil,
                      payload: .uint8([1, 2, 3, 4], shape: [2, 2])).serialize(into: &bytes)
        patch(&bytes)
        return bytes
    }

    @Test("run-file records are checked against their framing: lengths, rank, count against shape, codes")
    func runRecordsAreCheckedAgainstTheirFraming() throws {
        func decode(_ bytes: [UInt8]) throws(DatasetError) -> SortedExample? {
            var offset = 0
            return try bytes.withUnsafeBytes { raw in Result { () throws(DatasetError) in try SortedExample.deserialize(raw, offset: &offset) } }.get()
        }
        #expect(try decode(serializedExample()) != nil)
        // Layout: sortKey 8 | key length 4 | "k" | chunk 4 | ordinal 8 | word length 4 | "w" | country length 4 |
        // recognized 1 | timestamp length 4 | split 1 | rank 1 | dims 2×4 | kind 1 | count 4 | values.
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("key_id length", { $0.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0x7F]) }),
            ("word length", { $0.replaceSubrange(25..<29, with: [0xFF, 0xFF, 0xFF, 0xFF]) }),
            ("countrycode length", { $0.replaceSubrange(30..<34, with: [0xFF, 0xFF, 0xFF, 0xFF]) }),
            ("recognized", { $0[34] = 5 }),
            ("timestamp length", { $0.replaceSubrange(35..<39, with: [0xFF, 0xFF, 0xFF, 0xFF]) }),
            ("split code", { $0[39] = 9 }),
            ("rank", { $0[40] = 200 }),
            ("value count", { $0.replaceSubrange(41..<45, with: [0xFF, 0xFF, 0xFF, 0xFF]) }),
            ("payload code", { $0[49] = 7 }),
        ]
        for (field, patch) in cases {
            let error = #expect(throws: DatasetError.self) { try decode(serializedExample(patch)) }
            #expect(error?.description.contains(field) == true, "\(field): \(String(describing: error))")
        }
    }

    @Test("a run file cut inside a declared 1 MiB key_id reads as truncated, naming the file")
    func runCutInsideAStringIsTruncated() throws {
        let directory = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes = Array("SKRUN01\n".utf8) + serializedExample()
        bytes += [UInt8](repeating: 0, count: 8) + [0, 0, 0x10, 0] + [UInt8](repeating: 0x41, count: 1 << 20)  // key_id of 1 MiB, then nothing
        try writeAtomically(bytes, to: "\(directory)/run.bin")
        let reader = try SortedRunReader(path: "\(directory)/run.bin")
        #expect(try reader.next() != nil)
        let error = #expect(throws: DatasetError.self) { try reader.next() }
        #expect(error?.description.contains("truncated run file") == true)
    }

    @Test("import-bitmaps refuses an NPY of shape (0, 2^32, 2^32) with a message, not a trap")
    func bitmapImportRefusesOverflowingShape() throws {
        let directory = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeAtomically(NPYFormat.header(dtype: .uint8, shape: [0, 1 << 32, 1 << 32]), to: "\(directory)/cat.npy")
        let job = NumpyBitmapImport(bitmapFiles: ["\(directory)/cat.npy"], simplifiedSource: nil, rows: 0..<10,
                                    sharding: ShardingOptions(format: .npy, examplesPerShard: 10, seed: 1, split: .standard),
                                    outputDirectory: "\(directory)/out")
        #expect(throws: FormatError.self) { try job.run() }
    }
}
