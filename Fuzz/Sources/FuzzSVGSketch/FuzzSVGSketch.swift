import Foundation
import SketchCore
import SketchFormats
import SketchRaster

/// Scratch file the SVG is written to: SVG sketches are read by path, one file per record.
private let scratchPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("sketchprep-fuzz-svg-\(ProcessInfo.processInfo.processIdentifier).svg").path

/// `text` with the XML specials escaped, for an attribute value.
private func attribute(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// libFuzzer entry point: the first byte chooses what the rest is: 0 a whole SVG file, 1 the path
/// data (`d`) of one `<path>`, 2 a `transform` list applied to a path with a line, a cubic, a
/// quadratic and an arc. The file is read as the CLI reads it (`DrawingSource`); every record it
/// gives must hold finite points within the renderer's range (`RenderRange`), and is simplified
/// and rendered (28×28). A file is accepted or rejected with a reason; nothing may trap (the arc
/// radii that underflow), hang or allocate beyond the SVG caps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVGSketch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let document: [UInt8]
    switch data[0] % 3 {
    case 0: document = Array(rest)
    case 1: document = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"\(attribute(rest))\"/></svg>".utf8)
    default:
        document = Array(
            ("<svg xmlns=\"http://www.w3.org/2000/svg\"><g transform=\"\(attribute(rest))\">"
                + "<path d=\"M1 2 L30 40 C 5 6 7 8 9 10 Q 20 0 40 40 A 30 20 45 1 0 80 90 Z\"/></g></svg>").utf8)
    }
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(document)) else {
        fatalError("cannot write the scratch file \(scratchPath)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratchPath) }
    do {
        let source = try DrawingSource(inputs: [scratchPath], word: "fuzz")
        try source.read(
            onRecord: { record, _ in
                for stroke in record.drawing.strokes {
                    for value in stroke.x + stroke.y {
                        precondition(value.magnitude <= RenderRange.maximumDeviceCoordinate, "an SVG point at \(value) was accepted")
                    }
                }
                var simplifier = Simplifier(options: .google)
                guard let simplified = try? simplifier.simplify(record.drawing) else { return }
                _ = try? GoogleBitmapRenderer().render(simplified)
            }, onRejected: { _ in })
    } catch {
        return 0  // the file was rejected as a source (it cannot be read): not a finding
    }
    return 0
}
