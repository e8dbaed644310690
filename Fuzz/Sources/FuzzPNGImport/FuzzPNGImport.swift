import SketchFormats

/// libFuzzer entry point: the input is a PNG file's bytes. Decoding either yields a gray image
/// of the header's size or throws `FormatError`; it must never trap or allocate for absurd headers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let image = try? PNGImage.decodeGray(bytes) {
        precondition(image.pixels.count == image.width * image.height, "gray image size does not match its header")
    }
    return 0
}
