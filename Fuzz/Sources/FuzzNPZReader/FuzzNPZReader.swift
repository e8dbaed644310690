import SketchFormats

/// libFuzzer entry point: bytes starting with `PK` are a whole stroke-3 `.npz` (zip, then each
/// split's pickled object array), anything else a pickle alone. Reading either yields arrays or
/// throws `FormatError`; it must never trap, recurse without bound or allocate past the caps
/// (zip entries and inflated bytes, pickle nesting and numbers; docs/limits.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNPZReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes.starts(with: [0x50, 0x4B]) {
        _ = try? ContainerValidation.stroke3ArrayCounts(npz: bytes)
    } else {
        _ = try? ContainerValidation.pickledArrayCount(bytes)
    }
    return 0
}
