extension NumpyObjectArrayPickle {
    // The pickle protocol 2 bytes of a 1-D object array of int16 (or float64) arrays, in the
    // layout of the published sketch-rnn files byte for byte (`numpy.core.multiarray._reconstruct`,
    // Python 2 byte strings, appends in batches of 1000), are ``preamble(count:)``, then per array
    // ``appendArrayPrefix(index:count:rows:columns:float64:to:)``, ``appendArrayTail(rawValues:to:)``
    // and ``appendArraySuffix(index:count:to:)``, then ``trailer``: the tail depends on the array
    // alone, so it can be made (and compressed) before the array's place is known
    // (`Stroke3NPZAssembler`). For int16 every value must be an integer in the int16 range
    // (checked by the caller).

    /// The little-endian int16 (or float64) bytes of `values`.
    package static func appendRawValues(_ values: [Double], float64: Bool, to out: inout [UInt8]) {
        if float64 {
            for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { out += $0 } }
        } else {
            for value in values { withUnsafeBytes(of: Int16(value).littleEndian) { out += $0 } }
        }
    }

    /// The pickle's opening, up to the object array's empty list: protocol, the `_reconstruct`,
    /// `ndarray` and `dtype` globals, the `(count,)` shape and the object dtype.
    package static func preamble(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x80, 2]
        out += Array("cnumpy.core.multiarray\n_reconstruct\n".utf8)
        put(1, &out)
        out += Array("cnumpy\nndarray\n".utf8)
        put(2, &out)
        emptyArray(&out)
        put(3, &out)
        out.append(0x28)
        integer(1, &out)
        integer(count, &out)
        out.append(0x85)
        out += Array("cnumpy\ndtype\n".utf8)
        put(4, &out)
        shortString("O8", &out)
        integer(0, &out)
        integer(1, &out)
        out += [0x87, 0x52]
        put(5, &out)
        dtypeState("|", 63, &out)
        out.append(0x89)
        out.append(0x5D)
        put(6, &out)
        return out
    }

    /// The pickle's end: the object array's state tuple, BUILD and STOP.
    package static let trailer: [UInt8] = [0x74, 0x62, 0x2E]

    /// Appends the bytes before array `index` of `count` (`rows × columns`) that depend on its
    /// place: the MARK opening a batch of appends, the `_reconstruct` call and its memo PUT (whose
    /// index grows with `index`), the shape, and the element dtype (defined by the first array,
    /// fetched from the memo by the others).
    package static func appendArrayPrefix(index: Int, count: Int, rows: Int, columns: Int, float64: Bool, to out: inout [UInt8]) {
        // Python's pickler appends in batches of 1000: MARK … APPENDS, or one item and APPEND.
        if index % 1000 == 0 && batchSize(index: index, count: count) > 1 { out.append(0x28) }
        get(1, &out)
        get(2, &out)
        emptyArray(&out)
        put(index == 0 ? 7 : 8 + index, &out)
        out.append(0x28)
        integer(1, &out)
        integer(rows, &out)
        integer(columns, &out)
        out.append(0x86)
        if index == 0 {
            get(4, &out)
            shortString(float64 ? "f8" : "i2", &out)
            integer(0, &out)
            integer(1, &out)
            out += [0x87, 0x52]
            put(8, &out)
            dtypeState("<", 0, &out)
        } else {
            get(8, &out)
        }
    }

    /// Appends the bytes of an array that depend on nothing but its values (`rawValues`, their
    /// little-endian bytes): not Fortran order, the data as a Python 2 byte string, the state
    /// tuple and BUILD.
    package static func appendArrayTail(rawValues: [UInt8], to out: inout [UInt8]) {
        out.append(0x89)
        if rawValues.count < 256 {
            out += [0x55, UInt8(rawValues.count)]
        } else {
            out.append(0x54)
            appendLE(UInt32(rawValues.count), 4, &out)
        }
        out += rawValues
        out += [0x74, 0x62]
    }

    /// Appends the APPENDS (or APPEND) closing a batch when array `index` of `count` is its last.
    package static func appendArraySuffix(index: Int, count: Int, to out: inout [UInt8]) {
        let size = batchSize(index: index, count: count)
        if index % 1000 == size - 1 { out.append(size > 1 ? 0x65 : 0x61) }
    }

    private static func batchSize(index: Int, count: Int) -> Int { min(1000, count - index / 1000 * 1000) }

    // Byte by byte (no array literals): the reduce side writes these pieces for every array.
    /// BINPUT / LONG_BINPUT of memo index `index`.
    private static func put(_ index: Int, _ out: inout [UInt8]) { memo(index, short: 0x71, long: 0x72, &out) }

    /// BINGET / LONG_BINGET of memo index `index`.
    private static func get(_ index: Int, _ out: inout [UInt8]) { memo(index, short: 0x68, long: 0x6A, &out) }

    private static func memo(_ index: Int, short: UInt8, long: UInt8, _ out: inout [UInt8]) {
        if index < 256 {
            out.append(short)
            out.append(UInt8(index))
        } else {
            out.append(long)
            appendLE(UInt32(index), 4, &out)
        }
    }

    private static func appendLE(_ value: UInt32, _ count: Int, _ out: inout [UInt8]) {
        for shift in 0..<count { out.append(UInt8((value >> (8 * UInt32(shift))) & 0xFF)) }
    }

    private static func integer(_ value: Int, _ out: inout [UInt8]) {
        if value >= 0 && value < 256 {
            out.append(0x4B)
            out.append(UInt8(value))
        } else if value >= 0 && value < 65_536 {
            out.append(0x4D)
            appendLE(UInt32(value), 2, &out)
        } else {
            out.append(0x4A)
            appendLE(UInt32(truncatingIfNeeded: value), 4, &out)
        }
    }

    private static func shortString(_ text: StaticString, _ out: inout [UInt8]) {
        out.append(0x55)
        out.append(UInt8(text.utf8CodeUnitCount))
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func dtypeState(_ order: StaticString, _ flags: UInt8, _ out: inout [UInt8]) {
        out.append(0x28)
        integer(3, &out)
        shortString(order, &out)
        out += [0x4E, 0x4E, 0x4E]
        out += [0x4A, 0xFF, 0xFF, 0xFF, 0xFF, 0x4A, 0xFF, 0xFF, 0xFF, 0xFF]
        integer(Int(flags), &out)
        out.append(0x74)
        out.append(0x62)
    }

    private static func emptyArray(_ out: inout [UInt8]) {
        integer(0, &out)
        out.append(0x85)
        shortString("b", &out)
        out.append(0x87)
        out.append(0x52)
    }
}
