import SketchIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Command-line inputs expanded to files: `-` stays stdin, a directory becomes its files whose
/// names end with one of `suffixes` (not recursive) and the files at every level below it whose
/// names end with one of `recursiveSuffixes`, in byte-wise path order (through
/// ``DirectoryWalk``), anything else is read as named (a FIFO, `/dev/stdin`). The one expansion
/// rule of every reader.
package enum InputExpansion {
    /// What `stat` says about the command-line input `input`; throws `FormatError` naming it when
    /// it is missing or cannot be looked at. The one "input not found" rule of every expansion.
    package static func status(of input: String) throws(FormatError) -> FileSystem.Status {
        do {
            return try FileSystem.status(input)
        } catch {
            throw FormatError(.input, "input not found: \(input) (\(error.text))")
        }
    }

    /// The files and the directory entries that could not be used (and were skipped).
    package static func expand(
        _ inputs: [String], suffixes: [String],
        recursiveSuffixes: [String] = []
    ) throws -> (files: [String], listing: DirectoryListing) {
        var files: [String] = []
        var listing = DirectoryListing()
        for input in inputs {
            if input == "-" {
                files.append(input)
                continue
            }
            let status = try InputExpansion.status(of: input)
            guard status.isDirectory else {
                files.append(input)
                continue
            }
            var found = try DirectoryWalk.list(input, recursive: false) { name in suffixes.contains { name.hasSuffix($0) } }
            if !recursiveSuffixes.isEmpty {
                found.append(try DirectoryWalk.list(input, recursive: true) { name in recursiveSuffixes.contains { name.hasSuffix($0) } })
                found.files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
            guard !found.files.isEmpty || !found.rejected.isEmpty else {
                throw FormatError(
                    .input, "no \((suffixes + recursiveSuffixes).map { "*\($0)" }.joined(separator: " or ")) files in \(input)")
            }
            files += found.files
            listing.append(found)
        }
        return (files, listing)
    }
}
