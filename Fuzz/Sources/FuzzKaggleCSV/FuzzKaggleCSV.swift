import Foundation
import SketchCore
import SketchFormats
import SketchRaster

/// Scratch file the CSV is written to (`.csv`: the Kaggle competition layout, read by path).
private let scratchPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("sketchprep-fuzz-csv-\(ProcessInfo.processInfo.processIdentifier).csv").path

/// libFuzzer entry point: the input is a whole Kaggle competition CSV (train or test header,
/// quoted fields, the drawing column). It is read as the CLI reads it (`DrawingSource`, word
/// `fuzz` for the test layout); every record is simplified, encoded and rendered. Each row must
/// come back as a record or a rejection; nothing may trap (a number from a field reaching an
/// integer conversion), hang or allocate beyond the line cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKaggleCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write the scratch file \(scratchPath)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratchPath) }
    do {
        var source = try DrawingSource(inputs: [scratchPath], word: "fuzz")
        source.maximumLineLength = 1 << 20
        try source.read(
            onRecord: { record, _ in
                var simplifier = Simplifier(options: .google)
                guard let simplified = try? simplifier.simplify(record.drawing) else { return }
                let tensor = StrokeTensorEncoder.encode(simplified, options: .book)
                precondition(tensor.values.allSatisfy(\.isFinite), "a CSV drawing encoded to a non-finite tensor")
                _ = try? GoogleBitmapRenderer().render(simplified)
            }, onRejected: { _ in })
    } catch {
        return 0  // the file was rejected as a source (a bad header): not a finding
    }
    return 0
}
