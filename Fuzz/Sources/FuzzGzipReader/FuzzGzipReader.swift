import Foundation
import SketchCore
import SketchFormats

/// Scratch file the input is written to: `QuickDrawReader` reads paths (gzip is recognised by
/// its magic bytes), so each input becomes this file's whole content.
private let scratchPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("sketchprep-fuzz-gzip-\(ProcessInfo.processInfo.processIdentifier).ndjson").path

/// libFuzzer entry point: the input is a whole input file, plain NDJSON or gzip (possibly
/// multi-member, truncated or with bad CRCs). Every line must come back as a record or a
/// rejection; the reader must never trap, hang or allocate beyond its line cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzipReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write the scratch file \(scratchPath)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratchPath) }
    do {
        var reader = try QuickDrawReader(inputs: [scratchPath])
        reader.maximumLineLength = 1 << 20
        var records = 0
        var rejected = 0
        try reader.read(onRecord: { _, _ in records += 1 }, onRejected: { _ in rejected += 1 })
    } catch {
        fatalError("QuickDrawReader threw although no callback does: \(error)")
    }
    return 0
}
