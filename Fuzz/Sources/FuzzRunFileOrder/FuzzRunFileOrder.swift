import SketchDataset

/// The blocks of the run file `bytes` (`SKRUN03`, docs/formats.md "Run files"), each as its header
/// and payload, and the trailer; nil when the framing cannot be followed.
private func blocks(of bytes: ArraySlice<UInt8>) -> (blocks: [ArraySlice<UInt8>], trailer: ArraySlice<UInt8>)? {
    let headerBytes = 32
    let trailerBytes = 48
    guard bytes.count >= 8 + trailerBytes else { return nil }
    var offset = bytes.startIndex + 8
    let end = bytes.endIndex - trailerBytes
    var blocks: [ArraySlice<UInt8>] = []
    while offset < end {
        guard end - offset >= headerBytes else { return nil }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[offset + index]) << (8 * index) }
        guard length <= end - offset - headerBytes else { return nil }
        blocks.append(bytes[offset..<offset + headerBytes + length])
        offset += headerBytes + length
    }
    return (blocks, bytes[end...])
}

/// libFuzzer entry point: the input is `k` (one byte), `k` block indexes (one byte each, taken
/// modulo the block count), then a run file. The file's blocks are put in the order the indexes
/// name (blocks repeated, dropped or moved, each keeping its valid CRC) with the file's own magic
/// and trailer. Oracle: when the file itself is valid, the rearranged file is accepted exactly
/// when it is the file itself, with the same example count; any other order is refused
/// (`DatasetError`), never read as another order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRunFileOrder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let count = input.first, input.count > 1 + Int(count) else { return 0 }
    let order = input[1..<1 + Int(count)].map(Int.init)
    let file = input[(1 + Int(count))...]
    guard let original = try? DatasetFileValidation.runFileExampleCount(Array(file)) else { return 0 }
    guard let (parts, trailer) = blocks(of: file), !parts.isEmpty else { return 0 }
    let chosen = order.map { $0 % parts.count }
    let rearranged = Array(file.prefix(8)) + chosen.flatMap { parts[$0] } + Array(trailer)
    let result = try? DatasetFileValidation.runFileExampleCount(rearranged)
    if chosen == Array(parts.indices) {
        precondition(result == original, "the same blocks in the same order read as \(String(describing: result)), not \(original)")
    } else {
        precondition(result == nil, "blocks in the order \(chosen) of \(parts.count) were accepted (\(result ?? 0) examples)")
    }
    return 0
}
