import SketchDataset
import SketchPipeline

/// libFuzzer entry point: the first byte chooses the file, the rest is its bytes: 0 `manifest.json`
/// (as `verify` reads it: every value checked before any sum), 1 `partial.json` (as `merge` reads
/// it), 2 a run file (each block's length, CRC-32C and key range, then every record, checked against
/// its framing). Each either is accepted or throws the module's error; none may trap (overflowing
/// counts, huge lengths) or allocate from a declared length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDatasetFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0: _ = try? DatasetFileValidation.manifestProblems(json: bytes)
    case 1: try? PipelineValidation.validatePartialManifest(json: bytes, file: "partial.json")
    default: _ = try? DatasetFileValidation.runFileExampleCount(bytes)
    }
    return 0
}
