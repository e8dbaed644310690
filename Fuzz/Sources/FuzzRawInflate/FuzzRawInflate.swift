import SketchFormats

/// libFuzzer entry point: the first two bytes (little-endian) are an output capacity, the rest a
/// raw deflate stream. The tool's inflate (its decoder for streams of small blocks, zlib for what
/// that decoder leaves) must give exactly zlib's result: the same bytes, status and unused input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let capacity = Int(data[0]) | Int(data[1]) << 8
    let deflated = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    precondition(
        ContainerValidation.rawInflateAgreesWithZlib(deflated, capacity: max(capacity, 1)),
        "inflate differs from zlib's")
    return 0
}
