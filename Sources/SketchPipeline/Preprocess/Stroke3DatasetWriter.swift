import Foundation
import SketchCore
import SketchDataset
import SketchFormats

/// The reduce side of a sketch-rnn pipeline (`encode.kind: stroke3`, `output.format: npz`): one
/// `<word>.npz` per class with `train`, `valid` and `test` object arrays of int16 `(n, 3)`
/// stroke-3 arrays, the layout Magenta's sketch-rnn loads with
/// `np.load(path, encoding='latin1', allow_pickle=True)`, or the same drawings in the flat
/// layout (`Stroke3FlatLayout`). A class holding float64 rows (float64 stroke-3 input kept as
/// it is) is written as float64.
///
/// Examples arrive in dataset order with their split already chosen by the one split rule
/// (`DatasetSplit`, per-class `split.counts` by hash rank; without a `split:` section the
/// pipeline takes `Stroke3SplitQuota`'s: 28 : 1 : 1 shares and Magenta's 70,000 / 2,500 / 2,500),
/// so a key_id is in the same split here as in an NPY or TFRecord dataset with the same shares,
/// and as in `convert --to stroke3`. Memory stays bounded:
/// examples are appended to one temporary file per class (behind buffers of
/// `spillBufferBytes` in all), and at the end each class is read back and written in turn, so
/// only one class is in memory at a time. Within a split the arrays keep dataset order, except
/// that the examples of a class read from stroke-3 input (key_id `<file>#<split>#<index>`) keep
/// their input order, so converting a published `.npz` gives the same arrays in the same places.
final class Stroke3DatasetWriter {
    private let directory: String
    private let classes: [(label: Int, word: String)]
    private let layout: Stroke3Layout
    private let spill: CategorySpill
    private var record: [UInt8] = []

    /// Writes into `directory` the classes `classes` (label, word) in `layout` (a class without
    /// examples gets an `.npz` of three empty arrays).
    init(
        directory: String, classes: [(label: Int, word: String)], layout: Stroke3Layout = .standard, spillBufferBytes: Int = 32 << 20
    ) throws {
        self.directory = directory
        self.classes = classes
        self.layout = layout
        spill = try CategorySpill(bufferLimit: spillBufferBytes)
    }

    /// Adds the example `example` (an `(n, 3)` stroke-3 body: int16 or float64 values) to `split`
    /// of its class; throws `PipelineError` for any other body (run files are read back from
    /// disk, so this is checked, not assumed).
    func add(_ example: RunRecord, split: SplitName) throws {
        // Spill record: split (1 byte), key length (UInt32), key, rows (UInt32), element type
        // (1 byte: 0 int16, 1 float64), values.
        let rows = example.rank == 2 && example.dimension(1) == 3 ? example.dimension(0) : -1
        let size = example.element == .int16 ? 2 : example.element == .float64 ? 8 : 0
        guard rows >= 0, size > 0, example.body.count == rows * 3 * size else {
            throw PipelineError("\(example.keyIDString) has no (n, 3) stroke-3 body")
        }
        record.removeAll(keepingCapacity: true)
        record.append(UInt8(SplitName.allCases.firstIndex(of: split)!))
        withUnsafeBytes(of: UInt32(example.keyID.count).littleEndian) { record += $0 }
        record.append(contentsOf: example.keyID)
        withUnsafeBytes(of: UInt32(rows).littleEndian) { record += $0 }
        record.append(example.element == .int16 ? 0 : 1)
        record.append(contentsOf: example.body)
        try spill.add(record, word: example.wordString)
    }

    /// Writes every class's `.npz`; returns the files (split nil: each holds every split) and
    /// their class indices.
    func finish() throws -> (files: [ShardFileEntry], order: [Int]) {
        try spill.flush()
        let spilled = Dictionary(uniqueKeysWithValues: spill.files.map { ($0.word, $0.path) })
        var files: [ShardFileEntry] = []
        for (_, word) in classes {
            var members: [SplitName: [(key: String, array: NumericArray)]] = [:]
            if let path = spilled[word] {
                try Self.readSpill(path) { split, key, array in members[split, default: []].append((key, array)) }
            }
            var splits: [(split: Stroke3Split, arrays: [NumericArray])] = []
            for split in SplitName.allCases {
                var list = members[split] ?? []
                let places = list.map { Stroke3Split.place(ofKey: $0.key)?.index }
                if !list.isEmpty, places.allSatisfy({ $0 != nil }) {
                    list = zip(places, list).sorted { $0.0! < $1.0! }.map(\.1)
                }
                splits.append((split.stroke3Split, list.map(\.array)))
            }
            let file = ConvertTarget.stroke3.fileName(word: word)
            let path = "\(directory)/\(file)"
            let isFloat64 = splits.contains { $0.arrays.contains(where: \.isFloat64) }
            try Stroke3NPZ.write(splits, elementType: isFloat64 ? .float64 : .int16, layout: layout, to: path)
            let measured = try Manifest.SourceFileEntry.measuring(path: path)
            files.append(
                ShardFileEntry(
                    file: file, split: nil, examples: splits.reduce(0) { $0 + $1.arrays.count },
                    bytes: measured.bytes, sha256: measured.sha256))
        }
        spill.removeFiles()
        return (files, classes.map(\.label))
    }

    /// Calls `body` for each spilled record of the file at `path`, in order.
    private static func readSpill(_ path: String, _ body: (SplitName, String, NumericArray) throws -> Void) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 0
        func uint32() -> Int {
            defer { offset += 4 }
            return Int(UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }))
        }
        while offset < bytes.count {
            let split = SplitName.allCases[Int(bytes[offset])]
            offset += 1
            let keyLength = uint32()
            let key = String(decoding: bytes[offset..<(offset + keyLength)], as: UTF8.self)
            offset += keyLength
            let rows = uint32()
            let isFloat64 = bytes[offset] == 1
            offset += 1
            var values: [Double] = []
            values.reserveCapacity(rows * 3)
            for index in 0..<(rows * 3) {
                values.append(
                    isFloat64
                        ? Double(
                            bitPattern: UInt64(
                                littleEndian: bytes.withUnsafeBytes {
                                    $0.loadUnaligned(fromByteOffset: offset + 8 * index, as: UInt64.self)
                                }))
                        : Double(
                            Int16(
                                littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 2 * index, as: Int16.self) }
                            )))
            }
            offset += rows * 3 * (isFloat64 ? 8 : 2)
            try body(split, key, NumericArray(rows: rows, columns: 3, values: values, isFloat64: isFloat64))
        }
    }
}

extension SplitName {
    /// The sketch-rnn split of the same name (`val` is `valid`).
    var stroke3Split: Stroke3Split {
        switch self {
        case .train: return .train
        case .val: return .valid
        case .test: return .test
        }
    }
}

extension PipelineConfig {
    /// `encode.kind: stroke3` and `output.format: npz` go together.
    package func validateStroke3Combination(_ top: YAMLSection) throws {
        let isStroke3: Bool
        if case .stroke3 = encode { isStroke3 = true } else { isStroke3 = false }
        if isStroke3 && output.format != .npz {
            throw top.error(
                "output.format", top.value("output"), "encode.kind: stroke3 writes sketch-rnn .npz files; set output.format: npz")
        }
        if !isStroke3 && output.format == .npz {
            throw top.error("output.format", top.value("output"), "npz holds stroke-3 arrays; set encode.kind: stroke3")
        }
        if isStroke3 && source.kind != .quickdrawNDJSON {
            throw top.error("encode.kind", top.value("encode"), "stroke3 encodes drawings, not an image-directory source")
        }
    }
}
