/// One stroke-3 array's bytes in a `.npz` entry, deflated on their own (``DeflateFragmentEncoder``)
/// before the array's place is known: in the pickled layout its pickle tail
/// (``NumpyObjectArrayPickle/appendArrayTail(rawValues:to:)``), in the flat layout its values.
/// ``Stroke3NPZAssembler`` joins fragments into entries without inflating them.
package struct Stroke3Fragment: Sendable, Equatable {
    /// Rows of the `(rows, 3)` array.
    package var rows: Int
    /// Whether the values are float64 (int16 otherwise).
    package var isFloat64: Bool
    /// Bytes before deflating, and their CRC-32.
    package var size: Int
    package var crc: UInt32
    /// Where the deflated bytes lie in the buffer that holds them.
    package var deflated: Range<Int>

    /// Bytes of an example's run-file body before the deflated bytes: `u32` size, `u32` CRC-32.
    package static let bodyHeaderBytes = 8

    /// The bytes a fragment of `rows` rows inflates to in `layout`.
    package static func size(rows: Int, isFloat64: Bool, layout: Stroke3Layout) -> Int {
        let values = rows * 3 * (isFloat64 ? 8 : 2)
        switch layout {
        case .flat: return values
        case .standard: return 1 + (values < 256 ? 2 : 5) + values + 2
        }
    }

    /// Appends to `storage` the fragment of the array whose little-endian values are `rawValues`
    /// (`rows × 3` int16 or float64) in `layout`, and returns it.
    package static func append(
        rows: Int, isFloat64: Bool, rawValues: [UInt8], layout: Stroke3Layout,
        encoder: DeflateFragmentEncoder, to storage: inout [UInt8]
    ) throws(FormatError) -> Stroke3Fragment {
        var plain: [UInt8] = []
        switch layout {
        case .flat: plain = rawValues
        case .standard:
            plain.reserveCapacity(size(rows: rows, isFloat64: isFloat64, layout: layout))
            NumpyObjectArrayPickle.appendArrayTail(rawValues: rawValues, to: &plain)
        }
        let start = storage.count
        // int16 deltas compress better without string matching; float64 values (many repeated bytes) with it.
        try encoder.append(plain, strategy: isFloat64 ? .standard : .huffmanOnly, to: &storage)
        return Stroke3Fragment(
            rows: rows, isFloat64: isFloat64, size: plain.count, crc: CRC32.checksum(plain), deflated: start..<storage.count)
    }

    /// An example's run-file body (``ExampleBody``): `u32` size, `u32` CRC-32, the deflated bytes
    /// of the array whose little-endian values are `rawValues`.
    package static func body(
        rows: Int, isFloat64: Bool, rawValues: [UInt8], layout: Stroke3Layout,
        encoder: DeflateFragmentEncoder
    ) throws(FormatError) -> [UInt8] {
        var body = [UInt8](repeating: 0, count: bodyHeaderBytes)
        let fragment = try append(
            rows: rows, isFloat64: isFloat64, rawValues: rawValues, layout: layout, encoder: encoder, to: &body)
        withUnsafeBytes(of: UInt32(fragment.size).littleEndian) { body.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: fragment.crc.littleEndian) { body.replaceSubrange(4..<8, with: $0) }
        return body
    }

    /// The fragment of a run-file body lying at `range` of its buffer `buffer`; nil unless the
    /// body holds a header whose size is that of `rows` rows in `layout`.
    package static func parse(
        body range: Range<Int>, of buffer: UnsafeRawBufferPointer, rows: Int, isFloat64: Bool, layout: Stroke3Layout
    ) -> Stroke3Fragment? {
        guard range.count >= bodyHeaderBytes else { return nil }
        let size = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt32.self)))
        guard size == Self.size(rows: rows, isFloat64: isFloat64, layout: layout) else { return nil }
        let crc = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound + 4, as: UInt32.self))
        return Stroke3Fragment(
            rows: rows, isFloat64: isFloat64, size: size, crc: crc, deflated: (range.lowerBound + bodyHeaderBytes)..<range.upperBound)
    }

    /// The float64 fragment of the same values as this int16 one (whose deflated bytes lie in
    /// `storage`), appended to `storage`: the rare path of a class mixing int16 and float64
    /// examples, which is written as float64, inflating and deflating again.
    package func float64(
        in storage: inout [UInt8], layout: Stroke3Layout, encoder: DeflateFragmentEncoder
    ) throws(FormatError) -> Stroke3Fragment {
        guard !isFloat64 else { return self }
        let plain = try DeflateFragmentEncoder.inflate(storage[deflated], size: size)
        let count = rows * 3
        // The values end 2 bytes (`t b`) before a pickle tail's end; a flat fragment is the values.
        let start = layout == .flat ? 0 : plain.count - 2 - 2 * count
        var values: [Double] = []
        values.reserveCapacity(count)
        plain.withUnsafeBytes { raw in
            for index in 0..<count {
                values.append(Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: start + 2 * index, as: Int16.self))))
            }
        }
        var rawValues: [UInt8] = []
        NumpyObjectArrayPickle.appendRawValues(values, float64: true, to: &rawValues)
        return try Self.append(
            rows: rows, isFloat64: true, rawValues: rawValues, layout: layout, encoder: encoder, to: &storage)
    }
}
