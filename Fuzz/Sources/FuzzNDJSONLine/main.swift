import Glibc
import LibFuzzerDriver

// libFuzzer's driver parses libFuzzer's flags and runs fuzzNDJSONLine, the LLVMFuzzerTestOneInput of
// FuzzNDJSONLine.swift. libFuzzer never passes a null pointer with a non-zero size; an empty input may
// come with a null pointer, so it gets an empty buffer instead.
private let empty: [UInt8] = [0]
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
        guard let data else { return empty.withUnsafeBufferPointer { fuzzNDJSONLine($0.baseAddress!, 0) } }
        return fuzzNDJSONLine(data, size)
    })
