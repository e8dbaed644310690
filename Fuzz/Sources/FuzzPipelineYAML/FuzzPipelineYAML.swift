import SketchPipeline

/// libFuzzer entry point: the input is a pipeline file's text. Validation either accepts it or
/// throws `PipelineError`; it must never trap (Yams included) or accept unbounded sizes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipelineYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    try? PipelineValidation.validate(yaml: text, file: "fuzz.yaml")
    return 0
}
