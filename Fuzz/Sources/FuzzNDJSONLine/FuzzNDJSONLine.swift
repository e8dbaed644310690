import SketchCore
import SketchFormats
import SketchRaster

/// libFuzzer entry point: the input is one NDJSON line (raw or simplified Quick, Draw! record).
/// A rejected line is fine; a record that parses goes through every per-record stage the
/// pipelines run (variable-length tensor of the raw points, Google simplification, 75×3 stroke
/// tensor that must be finite, 28×28 bitmap). A `DrawingLimitError` from simplification is fine
/// (the pipelines quarantine it). Any trap, sanitizer report, hang or blow-up is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSONLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var parser = QuickDrawLineParser(keepsTimestamps: true)
    let record: SketchRecord
    do {
        record = try parser.parse(UnsafeBufferPointer(start: data, count: size))
    } catch {
        return 0
    }
    _ = StrokeTensorEncoder.encode(record.drawing, options: .tfTutorial)
    var simplifier = Simplifier(options: .google)
    let simplified: Drawing
    do {
        simplified = try simplifier.simplify(record.drawing)
    } catch {
        return 0  // over a resampling cap: quarantined by the pipelines
    }
    let tensor = StrokeTensorEncoder.encode(simplified, options: .book)
    precondition(tensor.values.allSatisfy(\.isFinite), "a simplified drawing encoded to a non-finite tensor")
    _ = try? GoogleBitmapRenderer().render(simplified)
    return 0
}
