import Foundation
import SketchCore
import SketchFormats
import SketchIO

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
/// and as in `convert --to stroke3`. Each example arrives deflated by the map side
/// (`Stroke3Fragment`), and the `.npz` is assembled from these fragments (`Stroke3NPZAssembler`,
/// the bytes `convert --to stroke3` writes for the same arrays) without inflating or deflating
/// them: O(1) work per example besides copying its bytes. The rare exception is a class mixing
/// int16 and float64 examples: it is written as float64, so its int16 fragments are inflated
/// and deflated again as float64. Memory stays bounded: examples are appended to one temporary
/// file per class behind buffers of `spillBufferBytes` in all (a class that never outgrows them
/// stays in memory), and at the end each class is taken back and written in turn, so only one
/// class is in memory at a time besides the buffers. Within a split the
/// arrays keep dataset order, except that the examples of a class read from stroke-3 input
/// (key_id `<file>#<split>#<index>`) keep their input order, so converting a published `.npz`
/// gives the same arrays in the same places.
package final class Stroke3DatasetWriter {
    private let directory: String
    private let classes: [(label: Int, word: String)]
    private let layout: Stroke3Layout
    private let spill: CategorySpill<Int>
    private let encoder: DeflateFragmentEncoder
    private var record: [UInt8] = []

    /// Writes into `directory` the classes `classes` (label, word) in `layout` (a class without
    /// examples gets an `.npz` of three empty arrays).
    package init(
        directory: String, classes: [(label: Int, word: String)], layout: Stroke3Layout = .standard, spillBufferBytes: Int = 32 << 20
    ) throws {
        self.directory = directory
        self.classes = classes
        self.layout = layout
        spill = try CategorySpill(bufferLimit: spillBufferBytes)
        encoder = try DeflateFragmentEncoder()
    }

    /// Adds the example `example` (an `(n, 3)` stroke-3 body of int16 or float64 values: a
    /// `Stroke3Fragment` body in this writer's layout) to `split` of its class; throws
    /// `DatasetError` for any other body (run files are read back from disk, so this is checked,
    /// not assumed).
    package func add(_ example: RunRecord, label: Int, split: Int) throws {
        // Spill record: split (1 byte), key length (UInt32), key, rows (UInt32), element type
        // (1 byte: 0 int16, 1 float64), body length (UInt32), body (size, CRC-32, deflated bytes).
        let rows = example.rank == 2 && example.dimension(1) == 3 ? example.dimension(0) : -1
        let isFloat64 = example.element == .float64
        guard rows >= 0, example.element == .int16 || isFloat64,
            Stroke3Fragment.parse(body: 0..<example.body.count, of: example.body, rows: rows, isFloat64: isFloat64, layout: layout) != nil
        else {
            throw DatasetError(.example, "\(example.keyIDString) has no (n, 3) stroke-3 body")
        }
        record.removeAll(keepingCapacity: true)
        record.append(UInt8(split))
        withUnsafeBytes(of: UInt32(example.keyID.count).littleEndian) { record += $0 }
        record.append(contentsOf: example.keyID)
        withUnsafeBytes(of: UInt32(rows).littleEndian) { record += $0 }
        record.append(isFloat64 ? 1 : 0)
        withUnsafeBytes(of: UInt32(example.body.count).littleEndian) { record += $0 }
        record.append(contentsOf: example.body)
        try spill.add(record, to: label)
    }

    /// Writes every class's `.npz`; returns the files (split nil: each holds every split) and
    /// their class indices.
    package func finish() throws -> (files: [ShardFileEntry], order: [Int]) {
        var files: [ShardFileEntry] = []
        for (label, word) in classes {
            var members: [[(place: Int?, fragment: Stroke3Fragment)]] = [[], [], []]
            var storage = try spill.take(label)
            try readSpill(storage) { split, place, fragment in members[split].append((place, fragment)) }
            var splits: [(split: Stroke3Split, fragments: [Stroke3Fragment])] = []
            for (index, split) in SplitName.allCases.enumerated() {
                var list = members[index]
                if !list.isEmpty, list.allSatisfy({ $0.place != nil }) { list.sort { $0.place! < $1.place! } }
                splits.append((split.stroke3Split, list.map(\.fragment)))
            }
            let isFloat64 = splits.contains { $0.fragments.contains(where: \.isFloat64) }
            if isFloat64 {
                // The rare mixed class: its int16 examples are inflated and deflated again as float64.
                for index in splits.indices {
                    splits[index].fragments = try splits[index].fragments.map { fragment throws(FormatError) in
                        try fragment.float64(in: &storage, layout: layout, encoder: encoder)
                    }
                }
            }
            let file = Stroke3NPZOutput.fileName(word: word)
            let path = "\(directory)/\(file)"
            let npz = try Stroke3NPZAssembler.encode(
                splits, storage: storage, elementType: isFloat64 ? .float64 : .int16, layout: layout, encoder: encoder, path: path)
            try writeAtomically(npz, to: path)
            // Measured from the bytes just written, not by reading the file back.
            files.append(
                ShardFileEntry(
                    file: file, split: nil, examples: splits.reduce(0) { $0 + $1.fragments.count },
                    bytes: npz.count, sha256: SHA256Hasher.hash(npz).hexString))
        }
        spill.removeFiles()
        return (files, classes.map(\.label))
    }

    /// Calls `body` for each record of the spill file `bytes`, in order, with its place in its
    /// stroke-3 input file (nil for a key_id not of the form `<file>#<split>#<index>`) and its
    /// fragment (whose deflated bytes lie in `bytes`).
    private func readSpill(_ bytes: [UInt8], _ body: (Int, Int?, Stroke3Fragment) throws -> Void) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            func uint32() -> Int {
                defer { offset += 4 }
                return Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            }
            while offset < raw.count {
                let split = Int(raw[offset])
                offset += 1
                let keyLength = uint32()
                let key = raw[offset..<(offset + keyLength)]
                // Only a key_id with a `#` can name a place: no String is made for the others.
                let place = key.contains(UInt8(ascii: "#")) ? Stroke3Split.place(ofKey: String(decoding: key, as: UTF8.self))?.index : nil
                offset += keyLength
                let rows = uint32()
                let isFloat64 = raw[offset] == 1
                offset += 1
                let bodyLength = uint32()
                guard
                    let fragment = Stroke3Fragment.parse(
                        body: offset..<(offset + bodyLength), of: raw, rows: rows, isFloat64: isFloat64, layout: layout)
                else {
                    throw DatasetError(
                        .invariant, "internal: the spilled stroke-3 body of \(String(decoding: key, as: UTF8.self)) is damaged")
                }
                offset += bodyLength
                try body(split, place, fragment)
            }
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
