import SketchCore
import SketchFormats
import SketchRaster

/// The parser and flat storage of the flat path, kept from input to input, so that it also reads
/// lines after others (its scratch buffers hold the values of the lines before).
nonisolated(unsafe) private var flatParser = QuickDrawLineParser(keepsTimestamps: true)
nonisolated(unsafe) private var flat = FlatStrokes()

/// libFuzzer entry point: the input is one NDJSON line (raw or simplified Quick, Draw! record).
/// A rejected line is fine; a record that parses must parse into flat storage too, to the same
/// points and times, and goes through every per-record stage the pipelines run (variable-length
/// tensor of the raw points, Google simplification, 75×3 stroke tensor that must be finite, 28×28
/// bitmap). A `DrawingLimitError` from simplification is fine (the pipelines quarantine it). Any
/// trap, sanitizer report, hang or blow-up is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSONLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var parser = QuickDrawLineParser(keepsTimestamps: true)
    let record: SketchRecord
    do {
        record = try parser.parse(UnsafeBufferPointer(start: data, count: size))
    } catch {
        return 0
    }
    let flatRecord = try? flatParser.parse(UnsafeBufferPointer(start: data, count: size), strokesInto: &flat)
    let strokes = record.drawing.strokes
    let timed = strokes.filter { !$0.t.isEmpty }.count
    precondition(flatRecord?.kind == record.kind, "a line parsed whole but not into flat storage, or to another kind")
    precondition(flat.x == strokes.flatMap(\.x) && flat.y == strokes.flatMap(\.y), "flat points differ from the strokes'")
    precondition(
        flat.timedStrokeCount == timed
            && flat.t == (timed == 0 ? [] : strokes.flatMap { $0.t.isEmpty ? Array(repeating: 0, count: $0.x.count) : $0.t }),
        "flat times differ from the strokes'")
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
