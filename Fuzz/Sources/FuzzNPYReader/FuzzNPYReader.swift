import SketchFormats

/// libFuzzer entry point: the input is a `.npy` file's bytes. Parsing either yields an array
/// whose data matches its shape and dtype or throws `FormatError`; every shape product is
/// checked, so no header traps (`(0, 2³², 2³²)` included).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNPYReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let array = try? NPYReader.parse(bytes, path: "fuzz.npy") {
        let elements = array.shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
        precondition(array.data.count == elements * array.dtype.size, "NPY data does not match its shape")
        let rowWidth = array.shape.dropFirst().reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
        precondition(rowWidth >= 0, "a sub-product of an accepted shape overflowed")
    }
    return 0
}
