import Foundation
import SketchCore
import SketchFormats

/// Scratch file the input is written to: `GoogleBinaryReader` reads paths (plain or gzip).
private let scratchPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("sketchprep-fuzz-bin-\(ProcessInfo.processInfo.processIdentifier).bin").path

/// libFuzzer entry point: the input is a whole Google `.bin` file (possibly gzip, truncated or
/// inconsistent). Every record must come back as a record or a rejection with its byte offset;
/// the reader must never trap, hang or allocate for an absurd stroke or point count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write the scratch file \(scratchPath)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratchPath) }
    do {
        var records = 0
        var rejected = 0
        try GoogleBinaryReader(path: scratchPath, word: "fuzz").read(
            onRecord: { _, _ in records += 1 },
            onRejected: { _ in rejected += 1 })
    } catch {
        fatalError("GoogleBinaryReader threw although no callback does: \(error)")
    }
    return 0
}
