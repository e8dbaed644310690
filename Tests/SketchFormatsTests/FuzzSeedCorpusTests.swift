import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

/// Replays the fuzzers' seed corpora (Fuzz/Corpus, docs/fuzzing.md) without sanitizers, so every
/// seed — the extreme numbers, damaged gzip files and odd PNGs among them — is checked by
/// `swift test` too, not only by `make fuzz`.
@Suite struct FuzzSeedCorpusTests {
    static func seeds(_ harness: String) throws -> [URL] {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("Fuzz/Corpus/\(harness)")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func everyNDJSONSeedIsRejectedOrSimplifiesToFiniteTensors() throws {
        let seeds = try Self.seeds("FuzzNDJSONLine")
        #expect(seeds.count > 50)
        var parsed = 0
        var rejected = 0
        for seed in seeds {
            let bytes = [UInt8](try Data(contentsOf: seed))
            var parser = QuickDrawLineParser()
            guard let record = try? parser.parse(bytes) else {
                rejected += 1
                continue
            }
            parsed += 1
            var simplifier = Simplifier(options: .google)
            guard let simplified = try? simplifier.simplify(record.drawing) else { continue }
            let tensor = StrokeTensorEncoder.encode(simplified, options: .book)
            #expect(tensor.values.allSatisfy { $0.isFinite }, "\(seed.lastPathComponent)")
            #expect(simplified.strokes.allSatisfy { $0.x.allSatisfy { (0...255).contains($0) } }, "\(seed.lastPathComponent)")
        }
        // The SampleData seeds parse; the extreme ones (±1e308, 1e400, NaN, …) are rejected where parsed.
        #expect(parsed >= 24 && rejected >= 20, "parsed \(parsed), rejected \(rejected)")
    }

    @Test func theExtremeNumberSeedsAreRejectedAsOutOfRangeOrNonNumeric() throws {
        for name in ["extreme-00", "extreme-01", "extreme-07", "extreme-09", "extent-inf", "extent-7e305"] {
            let seed = TestSupport.repositoryRoot.appendingPathComponent("Fuzz/Corpus/FuzzNDJSONLine/\(name)")
            let bytes = [UInt8](try Data(contentsOf: seed))
            var parser = QuickDrawLineParser()
            #expect(throws: FormatError.self, "\(name)") { try parser.parse(bytes) }
        }
    }

    @Test func everyGzipSeedIsReadToRecordsRejectionsOrSourceErrors() throws {
        for seed in try Self.seeds("FuzzGzipReader") {
            let reader = try QuickDrawReader(inputs: [seed.path])
            var records = 0
            var rejected = 0
            try reader.read(onRecord: { _, _ in records += 1 }, onRejected: { _ in rejected += 1 })
            #expect(records + rejected > 0 || seed.lastPathComponent == "gzip-empty-member", "\(seed.lastPathComponent)")
        }
    }

    @Test func everyPNGSeedDecodesToItsHeaderSizeOrThrows() throws {
        var decoded = 0
        for seed in try Self.seeds("FuzzPNGImport") {
            guard let image = try? PNGImage.decodeGray([UInt8](try Data(contentsOf: seed))) else { continue }
            decoded += 1
            #expect(image.pixels.count == image.width * image.height, "\(seed.lastPathComponent)")
        }
        #expect(decoded >= 10)
    }

    @Test func everyBinSeedIsReadToRecordsOrRejectionsWithByteOffsets() throws {
        var records = 0
        for seed in try Self.seeds("FuzzBinReader") {
            var rejected: [RejectedLine] = []
            try GoogleBinaryReader(path: seed.path, word: "seed").read(
                onRecord: { _, _ in records += 1 },
                onRejected: { rejected.append($0) })
            if seed.lastPathComponent != "two-records" && seed.lastPathComponent != "gzip" && seed.lastPathComponent != "empty" {
                #expect(!rejected.isEmpty, "\(seed.lastPathComponent)")
            }
            #expect(rejected.allSatisfy { $0.reason.contains("byte offset") || $0.reason.contains("byte") }, "\(seed.lastPathComponent)")
        }
        #expect(records >= 4)
    }

    @Test func numpyWrittenNPZSeedsDecodeAndHostileOnesThrowFormatErrors() throws {
        var decoded: [String] = []
        for seed in try Self.seeds("FuzzNPZReader") {
            let bytes = [UInt8](try Data(contentsOf: seed))
            let name = seed.lastPathComponent
            if name.hasPrefix("npz-") {
                let counts = try ContainerValidation.stroke3ArrayCounts(npz: bytes)
                #expect(counts.allSatisfy { $0 >= 1 }, "\(name)")
                decoded.append(name)
            } else if name.hasPrefix("pickle-p") {
                #expect(try ContainerValidation.pickledArrayCount(bytes) == 2, "\(name)")
                decoded.append(name)
            } else {
                #expect(throws: FormatError.self, "\(name)") {
                    _ =
                        bytes.starts(with: [0x50, 0x4B])
                        ? try ContainerValidation.stroke3ArrayCounts(npz: bytes).count
                        : try ContainerValidation.pickledArrayCount(bytes)
                }
            }
        }
        // numpy's protocol 2 and 5 pickles of int16, int32 and float64 arrays, as .npz and alone.
        #expect(decoded.count == 14, "\(decoded)")
    }

    @Test func everyRawInflateSeedInflatesAsZlibAndWholeStreamsWithoutZlib() throws {
        let seeds = try Self.seeds("FuzzRawInflate")
        #expect(seeds.count >= 10)
        for seed in seeds {
            let bytes = [UInt8](try Data(contentsOf: seed))
            let capacity = max(Int(bytes[0]) | Int(bytes[1]) << 8, 1)
            let deflated = Array(bytes.dropFirst(2))
            #expect(ContainerValidation.rawInflateAgreesWithZlib(deflated, capacity: capacity), "\(seed.lastPathComponent)")
            let decodedHere = deflated.withUnsafeBufferPointer { SmallBlockInflate.inflate($0, capacity: capacity) } != nil
            // Stored blocks, fixed codes and literal-only dynamic blocks are decoded without zlib;
            // damaged streams and dynamic blocks that may send matches are left to it.
            switch seed.lastPathComponent {
            case "huffman-only-fragments", "huffman-only-fragments-open", "fixed", "level-0":
                #expect(decodedHere, "\(seed.lastPathComponent)")
            case "truncated", "capacity-short", "block-type-3", "rle":
                #expect(!decodedHere, "\(seed.lastPathComponent)")
            default: break
            }
        }
    }

    @Test func everyNPYSeedParsesToItsShapeOrThrowsAFormatError() throws {
        for seed in try Self.seeds("FuzzNPYReader") {
            let bytes = [UInt8](try Data(contentsOf: seed))
            if let array = try? NPYReader.parse(bytes) {
                #expect(array.data.count == array.shape.reduce(array.dtype.size, *), "\(seed.lastPathComponent)")
            } else {
                #expect(["overflowing-shape", "huge-shape", "negative-shape", "fortran", "version-3"].contains(seed.lastPathComponent))
            }
        }
    }
}
