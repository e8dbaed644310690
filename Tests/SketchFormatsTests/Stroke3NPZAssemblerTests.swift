import Testing

@testable import SketchFormats

@Suite struct Stroke3NPZAssemblerTests {
    /// `count` arrays of 1 to 4 rows (the eighth 90 rows: a BINSTRING, not a SHORT_BINSTRING),
    /// integer values (plus a quarter for float64).
    static func arrays(_ count: Int, float64: Bool) -> [NumericArray] {
        (0..<count).map { index in
            let rows = index == 7 ? 90 : 1 + index % 4
            let values = (0..<(rows * 3)).map { Double(($0 * 37 + index * 11) % 200 - 100) + (float64 ? 0.25 : 0) }
            return NumericArray(rows: rows, columns: 3, values: values, isFloat64: float64)
        }
    }

    /// Splits whose train split holds `count` arrays.
    static func splits(train count: Int, float64: Bool) -> [(split: Stroke3Split, arrays: [NumericArray])] {
        [(.train, arrays(count, float64: float64)), (.valid, arrays(3, float64: float64)), (.test, [])]
    }

    @Test(arguments: [0, 1, 2, 1_000, 1_001, 2_001])
    func assembledEntriesInflateToTheWholeArrayBytesAcrossAppendBatchesAndLongMemoIndices(count: Int) throws {
        for elementType in Stroke3ElementType.allCases {
            let float64 = elementType == .float64
            let splits = Self.splits(train: count, float64: float64)
            let pickled = try ZipArchive.decode(try Stroke3NPZ.encode(splits, elementType: elementType, path: "x.npz"), path: "x.npz")
            #expect(pickled.map(\.name) == ["train.npy", "valid.npy", "test.npy"])
            for (entry, split) in zip(pickled, splits) {
                let whole =
                    NPYFormat.header(descr: "|O", shape: [split.arrays.count])
                    + NumpyObjectArrayPickle.encode(split.arrays, float64: float64)
                #expect(entry.contents == whole, "\(entry.name) of \(count) \(elementType) arrays")
            }
            let flat = try ZipArchive.decode(
                try Stroke3NPZ.encode(splits, elementType: elementType, layout: .flat, path: "x.npz"), path: "x.npz")
            let expected = Stroke3FlatLayout.entries(splits, elementType: elementType)
            #expect(flat.map(\.name) == expected.map(\.name))
            #expect(flat.map(\.contents) == expected.map(\.contents), "flat entries of \(count) \(elementType) arrays")
        }
    }

    @Test func fragmentsCarriedInRunBodiesAssembleToTheBytesConvertWrites() throws {
        let encoder = try DeflateFragmentEncoder()
        for layout in Stroke3Layout.allCases {
            let splits = Self.splits(train: 1_001, float64: false)
            // The map side's bodies, one after another as in a spill file, then the reduce side's assembly.
            var storage: [UInt8] = []
            var bodies: [Range<Int>] = []
            for (_, arrays) in splits {
                for array in arrays {
                    var raw: [UInt8] = []
                    NumpyObjectArrayPickle.appendRawValues(array.values, float64: false, to: &raw)
                    let start = storage.count
                    storage += try Stroke3Fragment.body(
                        rows: array.rows, isFloat64: false, rawValues: raw, layout: layout, encoder: encoder)
                    bodies.append(start..<storage.count)
                }
            }
            var next = bodies.makeIterator()
            let fragments = try storage.withUnsafeBytes { raw in
                try splits.map { split, arrays in
                    (
                        split,
                        try arrays.map { array in
                            try #require(
                                Stroke3Fragment.parse(body: next.next()!, of: raw, rows: array.rows, isFloat64: false, layout: layout))
                        }
                    )
                }
            }
            let assembled = try Stroke3NPZAssembler.encode(
                fragments, storage: storage, elementType: .int16, layout: layout, encoder: encoder, path: "x.npz")
            #expect(assembled == (try Stroke3NPZ.encode(splits, layout: layout, path: "x.npz")), "\(layout)")
        }
    }

    @Test func anInt16FragmentRewrittenAsFloat64IsTheFloat64Fragment() throws {
        let encoder = try DeflateFragmentEncoder()
        let array = Self.arrays(8, float64: false)[7]
        for layout in Stroke3Layout.allCases {
            var storage: [UInt8] = []
            var int16: [UInt8] = []
            var float64: [UInt8] = []
            NumpyObjectArrayPickle.appendRawValues(array.values, float64: false, to: &int16)
            NumpyObjectArrayPickle.appendRawValues(array.values, float64: true, to: &float64)
            let small = try Stroke3Fragment.append(
                rows: array.rows, isFloat64: false, rawValues: int16, layout: layout, encoder: encoder, to: &storage)
            let direct = try Stroke3Fragment.append(
                rows: array.rows, isFloat64: true, rawValues: float64, layout: layout, encoder: encoder, to: &storage)
            let rewritten = try small.float64(in: &storage, layout: layout, encoder: encoder)
            #expect(rewritten.isFloat64 && rewritten.size == direct.size && rewritten.crc == direct.crc)
            #expect(storage[rewritten.deflated] == storage[direct.deflated])
        }
    }

    @Test func aBodyWhoseSizeDoesNotMatchItsRowsIsRefused() throws {
        var raw: [UInt8] = []
        NumpyObjectArrayPickle.appendRawValues([1, 2, 0], float64: false, to: &raw)
        let body = try Stroke3Fragment.body(
            rows: 1, isFloat64: false, rawValues: raw, layout: .standard, encoder: try DeflateFragmentEncoder())
        body.withUnsafeBytes { bytes in
            #expect(Stroke3Fragment.parse(body: 0..<bytes.count, of: bytes, rows: 1, isFloat64: false, layout: .standard) != nil)
            #expect(Stroke3Fragment.parse(body: 0..<bytes.count, of: bytes, rows: 2, isFloat64: false, layout: .standard) == nil)
            #expect(Stroke3Fragment.parse(body: 0..<bytes.count, of: bytes, rows: 1, isFloat64: true, layout: .standard) == nil)
            #expect(Stroke3Fragment.parse(body: 0..<4, of: bytes, rows: 1, isFloat64: false, layout: .standard) == nil)
        }
    }
}
