import Foundation
import SketchFormats
import SketchIO
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

    /// One serialized run record with its fields patched by `patch` (byte offsets of the layout).
    private func serializedRecord(_ patch: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var bytes: [UInt8] = []
        SortedExample(
            sortKey: 1, keyID: "k", chunk: 0, ordinal: 0, word: "w", split: .train,
            body: ExampleBody(element: .uint8, shape: [2, 2], bytes: [1, 2, 3, 4])
        ).serialize(into: &bytes)
        patch(&bytes)
        return bytes
    }

    @Test("run-file records are checked against their framing: lengths, rank, codes")
    func runRecordsAreCheckedAgainstTheirFraming() throws {
        func decode(_ bytes: [UInt8]) throws(DatasetError) -> RunRecord {
            var offset = 0
            return try bytes.withUnsafeBytes { raw in Result { () throws(DatasetError) in try RunRecord.parse(raw, offset: &offset) } }
                .get()
        }
        #expect(try decode(serializedRecord()).keyIDString == "k")
        // Layout: length 4 | sortKey 8 | chunk 4 | ordinal 8 | split 1 | element 1 | flags 1 | rank 1 | body CRC 4 |
        // key length 4 | word length 4 | dims 2×4 | "k" | "w" | body.
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("length", { $0.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0x7F]) }),
            ("split code", { $0[24] = 9 }),
            ("element code", { $0[25] = 0 }),
            ("rank", { $0[27] = 200 }),
            ("key_id length", { $0.replaceSubrange(32..<36, with: [0xFF, 0xFF, 0xFF, 0x7F]) }),
            ("word length", { $0.replaceSubrange(36..<40, with: [0xFF, 0xFF, 0x0F, 0x00]) }),
        ]
        for (field, patch) in cases {
            let error = #expect(throws: DatasetError.self) { try decode(serializedRecord(patch)) }
            #expect(error?.description.contains(field) == true, "\(field): \(String(describing: error))")
        }
    }

    @Test("a run-file block that declares more bytes than the file holds is refused when the file is opened, naming the file")
    func runBlockPastTheEndIsTruncated() throws {
        let directory = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var header: [UInt8] = [0, 0, 0x10, 0]  // a block of 1 MiB…
        header += [UInt8](repeating: 0, count: RunFile.headerBytes - 4)
        var table = RunFile.TableDigest()
        table.add(header)
        // …of which 100 bytes exist.
        try writeAtomically(RunFile.magic + header + [UInt8](repeating: 0x41, count: 100) + table.trailer(), to: "\(directory)/run.bin")
        let error = #expect(throws: DatasetError.self) { _ = try RunRangeReader(path: "\(directory)/run.bin") }
        #expect(error?.description.contains("declares") == true && error?.description.contains("run.bin") == true)
    }

    @Test("the fuzzer's run-file seeds: the valid one counts its records, each damaged one is refused")
    func runFileSeedsAreJudgedByTheirFraming() throws {
        let corpus = TestSupport.repositoryRoot.appendingPathComponent("Fuzz/Corpus/FuzzDatasetFiles")
        func seed(_ name: String) throws -> [UInt8] {
            Array(try [UInt8](Data(contentsOf: corpus.appendingPathComponent(name))).dropFirst())
        }
        #expect(try DatasetFileValidation.runFileExampleCount(seed("run")) == 2)
        for name in ["run-truncated", "run-bad-crc", "run-bad-length", "run-out-of-range", "run-reordered", "run-repeated", "run-missing"] {
            #expect(throws: DatasetError.self, "\(name)") { try DatasetFileValidation.runFileExampleCount(seed(name)) }
        }
    }

    @Test("import-bitmaps refuses an NPY of shape (0, 2^32, 2^32) with a message, not a trap")
    func bitmapImportRefusesOverflowingShape() throws {
        let directory = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeAtomically(NPYFormat.header(dtype: .uint8, shape: [0, 1 << 32, 1 << 32]), to: "\(directory)/cat.npy")
        let job = NumpyBitmapImport(
            bitmapFiles: ["\(directory)/cat.npy"], simplifiedSource: nil, rows: 0..<10,
            sharding: ShardingOptions(format: .npy, examplesPerShard: 10, seed: 1, split: .standard),
            outputDirectory: "\(directory)/out")
        #expect(throws: FormatError.self) { try job.run() }
    }
}
