/// Joins stroke-3 fragments (``Stroke3Fragment``, deflated apart) into a `.npz`: the one way
/// `.npz` bytes are made, by `convert --to stroke3` (`Stroke3NPZ.encode`) and by the sketch-rnn
/// pipeline's reduce side alike, so both give the same bytes for the same arrays.
///
/// An entry's deflate stream is its opening deflated once (the `.npy` header, and in the pickled
/// layout the pickle's preamble, ``NumpyObjectArrayPickle/preamble(count:)``), then per array a
/// stored block of the pickle bytes that depend on its place
/// (``NumpyObjectArrayPickle/appendArrayPrefix(index:count:rows:columns:float64:to:)``, with the
/// previous batch's APPENDS) followed by its fragment as it is, then a final stored block (the
/// pickle's trailer, or nothing). The entry's CRC-32 combines the small pieces' CRCs with the
/// fragments' (zlib's `crc32_combine`) and its size is the sum, so no array is inflated or
/// deflated here: O(1) work per array besides copying its bytes. The flat layout's offsets
/// entry (8 bytes per array) is deflated here whole.
///
/// The entries inflate to exactly the whole-array bytes: `NPYFormat.header` and the pickle
/// ``NumpyObjectArrayPickle``'s pieces make (the published files' pickles), or the flat layout's
/// `.npy` arrays (`Stroke3NPZAssemblerTests` checks both against encoders written whole).
package enum Stroke3NPZAssembler {
    /// The `.npz` bytes of `splits` (each fragment's deflated bytes lying in `storage`, its element
    /// type `elementType`) in `layout`: the pickled layout's entries in the order of `splits`, the
    /// flat layout's in ``Stroke3FlatLayout/entryNames`` order. `path` names the file in errors
    /// (an entry larger than a zip without zip64 holds).
    package static func encode(
        _ splits: [(split: Stroke3Split, fragments: [Stroke3Fragment])], storage: [UInt8],
        elementType: Stroke3ElementType, layout: Stroke3Layout, encoder: DeflateFragmentEncoder, path: String
    ) throws(FormatError) -> [UInt8] {
        var entries: [ZipArchive.Entry] = []
        var combiner = CRC32Combiner()
        switch layout {
        case .standard:
            for (split, fragments) in splits {
                entries.append(
                    try pickledEntry(
                        "\(split.rawValue).npy", fragments, storage: storage, float64: elementType == .float64, encoder: encoder,
                        combiner: &combiner))
            }
        case .flat:
            for split in Stroke3Split.allCases {
                let fragments = splits.first { $0.split == split }?.fragments ?? []
                entries += try flatEntries(
                    split, fragments, storage: storage, elementType: elementType, encoder: encoder, combiner: &combiner)
            }
        }
        return try ZipArchive.encode(entries, path: path)
    }

    /// An entry's deflate stream, size and CRC-32 as pieces are added.
    private struct EntryStream {
        var deflated: [UInt8] = []
        var size = 0
        var crc: UInt32 = 0

        /// A stream about to take `fragments` (lying in `storage`) with up to `perFragment` bytes
        /// of stored-block header and pickle around each, so that their bytes are copied once.
        init(reservingFor fragments: [Stroke3Fragment], perFragment: Int) {
            deflated.reserveCapacity(fragments.reduce(1 << 10) { $0 + $1.deflated.count + perFragment })
        }

        init() {}

        /// Adds `bytes` deflated as one piece.
        mutating func deflate(_ bytes: [UInt8], _ encoder: DeflateFragmentEncoder) throws(FormatError) {
            try encoder.append(bytes, to: &deflated)
            record(bytes)
        }

        /// Adds `bytes` as a stored block (`final`: the stream's last block).
        mutating func store(_ bytes: [UInt8], final: Bool) {
            DeflateFragmentEncoder.appendStoredBlock(bytes[...], final: final, to: &deflated)
            record(bytes)
        }

        /// Adds a fragment's deflated bytes as they are.
        mutating func append(_ fragment: Stroke3Fragment, _ storage: [UInt8], _ combiner: inout CRC32Combiner) {
            deflated += storage[fragment.deflated]
            crc = combiner.combine(crc, fragment.crc, length: fragment.size)
            size += fragment.size
        }

        private mutating func record(_ bytes: [UInt8]) {
            crc = CRC32.checksum(bytes, continuing: crc)
            size += bytes.count
        }

        func entry(_ name: String) -> ZipArchive.Entry { ZipArchive.Entry(name: name, deflated: deflated, size: size, crc: crc) }
    }

    private static func pickledEntry(
        _ name: String, _ fragments: [Stroke3Fragment], storage: [UInt8], float64: Bool, encoder: DeflateFragmentEncoder,
        combiner: inout CRC32Combiner
    ) throws(FormatError) -> ZipArchive.Entry {
        let count = fragments.count
        // Per array: a stored block's 5-byte header and about 40 bytes of pickle around it (a capacity hint).
        var stream = EntryStream(reservingFor: fragments, perFragment: 48)
        try stream.deflate(NPYFormat.header(descr: "|O", shape: [count]) + NumpyObjectArrayPickle.preamble(count: count), encoder)
        var piece: [UInt8] = []
        for (index, fragment) in fragments.enumerated() {
            try check(fragment, float64: float64, name: name)
            piece.removeAll(keepingCapacity: true)
            if index > 0 { NumpyObjectArrayPickle.appendArraySuffix(index: index - 1, count: count, to: &piece) }
            NumpyObjectArrayPickle.appendArrayPrefix(
                index: index, count: count, rows: fragment.rows, columns: 3, float64: float64, to: &piece)
            stream.store(piece, final: false)
            stream.append(fragment, storage, &combiner)
        }
        piece.removeAll(keepingCapacity: true)
        if count > 0 { NumpyObjectArrayPickle.appendArraySuffix(index: count - 1, count: count, to: &piece) }
        stream.store(piece + NumpyObjectArrayPickle.trailer, final: true)
        return stream.entry(name)
    }

    private static func flatEntries(
        _ split: Stroke3Split, _ fragments: [Stroke3Fragment], storage: [UInt8], elementType: Stroke3ElementType,
        encoder: DeflateFragmentEncoder, combiner: inout CRC32Combiner
    ) throws(FormatError) -> [ZipArchive.Entry] {
        let pointsName = Stroke3FlatLayout.pointsEntry(split)
        var offsets: [Int64] = [0]
        offsets.reserveCapacity(fragments.count + 1)
        for fragment in fragments {
            try check(fragment, float64: elementType == .float64, name: pointsName)
            offsets.append(offsets.last! + Int64(fragment.rows))
        }
        var points = EntryStream(reservingFor: fragments, perFragment: 0)
        try points.deflate(NPYFormat.header(dtype: elementType == .float64 ? .float64 : .int16, shape: [Int(offsets.last!), 3]), encoder)
        for fragment in fragments { points.append(fragment, storage, &combiner) }
        points.store([], final: true)
        var offsetsStream = EntryStream()
        try offsetsStream.deflate(NPYWriter.encode(offsets, dtype: .int64, shape: [offsets.count]), encoder)
        offsetsStream.store([], final: true)
        return [points.entry(pointsName), offsetsStream.entry(Stroke3FlatLayout.offsetsEntry(split))]
    }

    private static func check(_ fragment: Stroke3Fragment, float64: Bool, name: String) throws(FormatError) {
        guard fragment.isFloat64 == float64 else {
            throw FormatError(.zip, "\(name): an \(fragment.isFloat64 ? "float64" : "int16") array in an entry of the other element type")
        }
    }
}
