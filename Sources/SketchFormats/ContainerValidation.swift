/// Reads untrusted container bytes in memory exactly as the file readers do, for tools outside
/// the package (the fuzzing harnesses in `Fuzz/`): a stroke-3 `.npz` (zip, then each split's
/// pickled object array), a pickle alone, and a raw deflate stream. Every failure is a
/// `FormatError`; docs/limits.md lists the caps that hold before anything is allocated.
public enum ContainerValidation {
    /// The number of arrays in each split of the `.npz` `bytes`, in file order.
    public static func stroke3ArrayCounts(npz bytes: [UInt8]) throws(FormatError) -> [Int] {
        do {
            return try Stroke3NPZ.decode(bytes, path: "<memory>").map(\.arrays.count)
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError(.input, "\(error)")
        }
    }

    /// The number of numeric arrays in the pickled 1-D object array `bytes`.
    public static func pickledArrayCount(_ bytes: [UInt8]) throws(FormatError) -> Int {
        try NumpyObjectArrayPickle.decode(bytes).count
    }

    /// Whether the raw deflate stream `deflated`, inflated into at most `capacity` bytes as the
    /// `.npz` reader inflates an entry (the tool's own decoder for streams of small blocks, zlib
    /// for what it leaves), gives exactly zlib's bytes, status and unused input.
    public static func rawInflateAgreesWithZlib(_ deflated: [UInt8], capacity: Int) -> Bool {
        guard let ours = try? RawInflate.inflate(deflated[...], capacity: capacity),
            let zlib = try? RawInflate.zlib(deflated[...], capacity: capacity)
        else { return false }
        return ours == zlib
    }
}
