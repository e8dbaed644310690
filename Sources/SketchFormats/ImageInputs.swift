import SketchIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands command-line image inputs: a file stays itself (whatever its name or kind, so a
/// mislabelled file is still tried and reported, and a FIFO named explicitly is read); a directory
/// becomes every `*.png` below it (recursively, names matched case-insensitively), sorted byte-wise
/// by path, walked by ``DirectoryWalk`` (unreadable entries rejected, special files skipped).
public enum ImageInputs {
    /// The files to read in order, with the rejected and skipped directory entries; throws
    /// `FormatError` for a missing path or a directory without any `*.png` entry. With
    /// `limitPerInput` (`--limit`), a directory gives only its first that-many files. A
    /// directory's entries are classified on up to `threads` threads; the listing is the same for
    /// any count.
    public static func expand(_ inputs: [String], limitPerInput: Int? = nil, threads: Int = 1) throws -> DirectoryListing {
        var listing = DirectoryListing()
        for input in inputs {
            let status = try InputExpansion.status(of: input)
            guard status.isDirectory else {
                listing.files.append(input)
                continue
            }
            let found = try DirectoryWalk.list(input, recursive: true, threads: threads) { $0.lowercased().hasSuffix(".png") }
            guard !found.files.isEmpty || !found.rejected.isEmpty || !found.skipped.isEmpty else {
                throw FormatError(.input, "no *.png files under \(input)")
            }
            var kept = found
            if let limitPerInput { kept.files = Array(found.files.prefix(limitPerInput)) }
            listing.append(kept)
        }
        return listing
    }
}
