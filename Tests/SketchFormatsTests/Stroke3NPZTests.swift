import Foundation
import SketchCore
import SketchTestSupport
import Testing

@testable import SketchFormats

@Suite struct Stroke3NPZTests {
    static let arrays = [
        NumericArray(rows: 3, columns: 3, values: [5, 6, 0, 1, -1, 1, 0, 300, 1]),
        NumericArray(rows: 1, columns: 3, values: [-32_768, 32_767, 1]),
    ]

    @Test func writtenFilesReadBackWithTheirSplits() throws {
        let bytes = try Stroke3NPZ.encode([(.train, Self.arrays), (.valid, []), (.test, [Self.arrays[1]])], path: "x.npz")
        let splits = try Stroke3NPZ.decode(bytes, path: "x.npz")
        #expect(splits.map(\.split) == [.train, .valid, .test])
        #expect(splits[0].arrays == Self.arrays)
        #expect(splits[1].arrays.isEmpty)
        #expect(splits[2].arrays == [Self.arrays[1]])
    }

    @Test func encodingIsDeterministic() throws {
        let first = try Stroke3NPZ.encode([(.train, Self.arrays)], path: "x.npz")
        let second = try Stroke3NPZ.encode([(.train, Self.arrays)], path: "x.npz")
        #expect(first == second)
    }

    @Test func valuesOutsideInt16AreRefused() {
        #expect(throws: FormatError.self) {
            try Stroke3NPZ.encode([(.train, [NumericArray(rows: 1, columns: 3, values: [40_000, 0, 1])])], path: "x.npz")
        }
    }

    @Test func drawingsAndStroke3ConvertBothWays() {
        let drawing = Drawing(strokes: [Stroke(x: [5, 6, 6], y: [6, 5, 305]), Stroke(x: [10], y: [0])])
        let array = Stroke3.array(of: drawing)
        #expect(array.values == [5, 6, 0, 1, -1, 0, 0, 300, 1, 4, -305, 1])
        #expect(Stroke3.drawing(of: array) == drawing)
    }

    @Test func picklesNamingOtherGlobalsOrOpcodesAreRejected() {
        // os.system('true'), the classic pickle attack.
        let hostile: [UInt8] = [0x80, 2] + Array("cos\nsystem\n".utf8) + [0x55, 4] + Array("true".utf8) + [0x85, 0x52, 0x2E]
        #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(hostile) }
        // INST (opcode 'i') is outside the subset.
        #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode([0x80, 2, 0x69] + Array("a\nb\n".utf8) + [0x2E]) }
        // A protocol-0 pickle.
        #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode([0x80, 0, 0x4E, 0x2E]) }
    }

    @Test func thePublishedSketchRNNFilesReadAndWriteBackToTheSamePickles() throws {
        let path = TestSupport.sharedData.appendingPathComponent("sketchrnn/short_kanji.npz").path
        let splits = try Stroke3NPZ.read(path: path)
        #expect(splits.map(\.split) == [.valid, .test, .train])
        #expect(splits.map(\.arrays.count) == [600, 500, 10_000])
        let original = try ZipArchive.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
        let rewritten = try ZipArchive.decode(try Stroke3NPZ.encode(splits, path: "x.npz"), path: "x.npz")
        for (a, b) in zip(original, rewritten) {
            #expect(a.name == b.name)
            // The pickles agree byte for byte; only the .npy header padding differs (numpy ≥ 1.24 pads to 64).
            #expect(a.contents.suffix(a.contents.count - 80) == b.contents.suffix(b.contents.count - 128))
        }
    }

    @Test(
        "seeded int16 arrays, some out of range, and a published file read with flat points give the strokes and rejections of a whole read"
    )
    func stroke3ReadsFlatLikeWhole() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SeededGenerator(seed: 0x57E3)
        var arrays = (0..<500).map { _ -> NumericArray in
            let rows = 1 + Int(random.next() % 80)
            let values = (0..<rows).flatMap { row -> [Double] in
                [
                    Double(Int(random.next() % 20_001) - 10_000), Double(Int(random.next() % 81) - 40),
                    row == rows - 1 || random.next() % 7 == 0 ? 1 : 0,
                ]
            }
            return NumericArray(rows: rows, columns: 3, values: values)
        }
        // 31,000 steps of 32,767 go past the coordinate bound of 10⁹.
        arrays[250] = NumericArray(rows: 31_000, columns: 3, values: (0..<31_000).flatMap { row in [32_767, 0, row % 100 == 99 ? 1 : 0] })
        let seeded = directory.appendingPathComponent("seeded.npz")
        try Data(try Stroke3NPZ.encode([(.train, arrays), (.valid, []), (.test, [])], path: seeded.path)).write(to: seeded)
        for path in [seeded.path, TestSupport.sharedData.appendingPathComponent("sketchrnn/short_kanji.npz").path] {
            let (whole, flat) = try TestSupport.wholeAndFlatReads(of: DrawingSource(inputs: [path], format: .stroke3))
            #expect(flat == whole)
            #expect(whole.count == (path == seeded.path ? 500 : 11_100))
            #expect(whole.contains { $0.contains("coordinate out of range") } == (path == seeded.path))
        }
    }

    @Test func theFlatLayoutReadsBackTheSameArraysInTheSameOrder() throws {
        let splits: [(split: Stroke3Split, arrays: [NumericArray])] = [(.train, Self.arrays), (.valid, []), (.test, [Self.arrays[1]])]
        let bytes = try Stroke3NPZ.encode(splits, layout: .flat, path: "x.npz")
        #expect(try ZipArchive.decode(bytes, path: "x.npz").map(\.name) == Stroke3FlatLayout.entryNames)
        let read = try Stroke3NPZ.decode(bytes, path: "x.npz")
        #expect(read.map(\.split) == [.train, .valid, .test])
        #expect(read.map(\.arrays) == splits.map(\.arrays))
    }

    @Test func float64ArraysKeepTheirValuesAndTypeInBothLayouts() throws {
        let arrays = [NumericArray(rows: 2, columns: 3, values: [0.1, -2.25e-7, 0, 1e6, 0.3, 1], isFloat64: true)]
        for layout in Stroke3Layout.allCases {
            let bytes = try Stroke3NPZ.encode(
                [(.train, arrays), (.valid, []), (.test, [])], elementType: .float64, layout: layout, path: "x.npz")
            #expect(try Stroke3NPZ.decode(bytes, path: "x.npz").first { $0.split == .train }?.arrays == arrays)
        }
    }

    @Test func flatOffsetsThatDoNotCoverThePointsAreRefused() throws {
        var entries = Stroke3FlatLayout.entries([(.train, Self.arrays)], elementType: .int16)
        entries[1].contents = NPYWriter.encode([Int64(0), 5, 4], dtype: .int64, shape: [3])
        #expect(throws: FormatError.self) { try Stroke3FlatLayout.decode(entries, path: "x.npz") }
    }

    @Test func int16RowsRoundPositionsSoErrorDoesNotAccumulate() throws {
        let drawing = Drawing(strokes: [Stroke(x: [0.4, 0.8, 1.2, 1.6], y: [0, 0, 0, 2.5])])
        #expect(try Stroke3.int16Array(of: drawing).values == [0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 1])
        #expect(throws: FormatError.self) { try Stroke3.int16Array(of: Drawing(strokes: [Stroke(x: [0, 40_000], y: [0, 0])])) }
    }

    @Test func exactFloat64DeltasTravelBesideTheRecordWhilePositionsStillMatch() throws {
        let array = NumericArray(rows: 3, columns: 3, values: [0.1, 0.2, 0, 0.2, 0.1, 0, 0.7, 0.3, 1], isFloat64: true)
        var drawing = try #require(Stroke3.drawing(of: array))
        let record = SketchRecord(word: "w", countryCode: "", timestamp: "", recognized: true, keyID: "k", drawing: drawing)
        let deltas = Stroke3.exactDeltas(of: array, drawing: drawing)
        #expect(deltas != nil)
        #expect(Stroke3.array(of: drawing, exactDeltas: deltas) == array)
        var line: [UInt8] = []
        SimplifiedNDJSONWriter.encode(record, stroke3Deltas: deltas, into: &line)
        var parser = QuickDrawLineParser()
        let parsed = try parser.parse(line)
        #expect(Stroke3.array(of: parsed.drawing, exactDeltas: parser.stroke3Deltas) == array)
        drawing.strokes[0].x[0] = 5  // an edited drawing no longer sums to the deltas: positions decide
        #expect(Stroke3.array(of: drawing, exactDeltas: deltas) == Stroke3.array(of: drawing))
    }

    /// The pickle of each entry of `bytes` (after its `.npy` header).
    static func pickles(_ bytes: [UInt8]) throws -> [[UInt8]] {
        try ZipArchive.decode(bytes, path: "x.npz").map { entry in
            let headerLength = Int(entry.contents[8]) | Int(entry.contents[9]) << 8
            return Array(entry.contents[(10 + headerLength)...])
        }
    }

    @Test func picklesInTheWritersLayoutAreReadInPlaceAsTheGeneralReaderReadsThem() throws {
        // 1,200 arrays: two batches of appends and memo indices past 255 (LONG_BINPUT).
        let many = (0..<1_200).map {
            NumericArray(rows: 1 + $0 % 90, columns: 3, values: Array(repeating: Double($0 % 7), count: 3 * (1 + $0 % 90)))
        }
        let float64 = [NumericArray(rows: 2, columns: 3, values: [0.1, -2.25e-7, 0, 1e6, 0.3, 1], isFloat64: true)]
        for (arrays, elementType) in [(many, Stroke3ElementType.int16), (Self.arrays, .int16), ([], .int16), (float64, .float64)] {
            let pickle = try #require(
                try Self.pickles(try Stroke3NPZ.encode([(.train, arrays)], elementType: elementType, path: "x.npz")).first)
            let stored = try #require(pickle.withUnsafeBufferPointer(NumpyObjectArrayPickle.storedArrays))
            let read = Stroke3SplitArrays.stored(pickle, isFloat64: stored.isFloat64, arrays: stored.arrays).numericArrays
            #expect(read == (try NumpyObjectArrayPickle.decode(pickle)))
            #expect(read == arrays)
        }
        let published = try Stroke3NPZ.readSplits(path: TestSupport.sharedData.appendingPathComponent("sketchrnn/short_kanji.npz").path)
        #expect(published.allSatisfy { if case .stored = $0.arrays { true } else { false } })
    }

    @Test func damagedPicklesTheInPlaceWalkAcceptsReadAsTheGeneralReaderReadsThem() throws {
        let arrays = (0..<40).map {
            NumericArray(rows: 1 + $0 % 9, columns: 3, values: (0..<(3 * (1 + $0 % 9))).map { Double(($0 * 37) % 255 - 127) })
        }
        let pickle = try #require(try Self.pickles(try Stroke3NPZ.encode([(.train, arrays)], path: "x.npz")).first)
        var random = SeededGenerator(seed: 0x9C1)
        var accepted = 0
        for case_ in 0..<1_000 {
            var damaged = pickle
            for _ in 0..<(1 + random.next() % 2) {
                damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(1 << (random.next() % 8))
            }
            guard let stored = damaged.withUnsafeBufferPointer(NumpyObjectArrayPickle.storedArrays) else { continue }
            accepted += 1
            let read = Stroke3SplitArrays.stored(damaged, isFloat64: stored.isFloat64, arrays: stored.arrays).numericArrays
            #expect(read == (try? NumpyObjectArrayPickle.decode(damaged)), "case \(case_)")
        }
        #expect(accepted > 100)  // a flipped value bit keeps the layout: many damaged pickles are still walked in place
    }

    @Test func picklesOutsideTheWritersLayoutAreLeftToTheGeneralReader() throws {
        let pickle = try #require(try Self.pickles(try Stroke3NPZ.encode([(.train, Self.arrays)], path: "x.npz")).first)
        // Protocol 3 (the general reader takes 2–5), an opcode more before STOP, a cut pickle.
        var protocol3 = pickle
        protocol3[1] = 3
        let extra = Array(pickle.dropLast()) + [0x4E, 0x30, 0x2E]  // NONE, POP is outside the subset: decode throws
        for other in [protocol3, Array(pickle.dropLast()), extra] {
            #expect(other.withUnsafeBufferPointer(NumpyObjectArrayPickle.storedArrays) == nil)
        }
        #expect(try NumpyObjectArrayPickle.decode(protocol3) == Self.arrays)
        #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(extra) }
    }

    @Test func aPickleClaimingBillionsOfArraysIsLeftToTheGeneralReaderWithoutReservingForThem() {
        // 2³¹ − 1 arrays claimed by a pickle of a hundred bytes: nothing is reserved for the claim.
        let claim = NumpyObjectArrayPickle.preamble(count: Int(Int32.max)) + NumpyObjectArrayPickle.trailer
        #expect(claim.withUnsafeBufferPointer(NumpyObjectArrayPickle.storedArrays) == nil)
        #expect(throws: FormatError.self) { try NumpyObjectArrayPickle.decode(claim) }
    }
}
