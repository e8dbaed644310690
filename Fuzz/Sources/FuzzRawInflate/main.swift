import Glibc
import LibFuzzerDriver

// libFuzzer's driver parses libFuzzer's flags and runs fuzzRawInflate, the LLVMFuzzerTestOneInput of
// FuzzRawInflate.swift. An empty input may come with a null pointer, so it gets an empty buffer instead.
private let empty: [UInt8] = [0]
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
        guard let data else { return empty.withUnsafeBufferPointer { fuzzRawInflate($0.baseAddress!, 0) } }
        return fuzzRawInflate(data, size)
    })
