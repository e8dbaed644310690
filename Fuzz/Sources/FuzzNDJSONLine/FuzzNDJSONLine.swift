import SketchCore
import SketchFormats
import SketchRaster

/// libFuzzer entry point: the input is one NDJSON line (raw or simplified Quick, Draw! record).
/// A rejected line is fine; a record that parses goes through every per-record stage the
/// pipelines run (Google simplification, 75×3 stroke tensor, variable-length tensor, 28×28
/// bitmap). Any trap, sanitizer report, hang or blow-up is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSONLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var parser = QuickDrawLineParser(keepsTimestamps: true)
    let record: SketchRecord
    do {
        record = try parser.parse(UnsafeBufferPointer(start: data, count: size))
    } catch {
        return 0
    }
    var simplifier = Simplifier(options: .google)
    let simplified = simplifier.simplify(record.drawing)
    _ = StrokeTensorEncoder.encode(simplified, options: .book)
    _ = StrokeTensorEncoder.encode(record.drawing, options: .tfTutorial)
    _ = GoogleBitmapRenderer().render(simplified)
    return 0
}
