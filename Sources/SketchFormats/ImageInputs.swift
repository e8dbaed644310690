import Foundation

/// Expands command-line image inputs: a file stays itself (whatever its name, so a mislabelled file
/// is still tried and reported); a directory becomes every `*.png` below it (recursively, names
/// matched case-insensitively), sorted byte-wise by path.
public enum ImageInputs {
    /// The files to read in order; throws `InputError` for a missing path or an image-less directory.
    public static func expand(_ inputs: [String]) throws -> [String] {
        var files: [String] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw InputError("input not found: \(input)")
            }
            guard isDirectory.boolValue else {
                files.append(input)
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: input) else {
                throw InputError("cannot list directory \(input)")
            }
            let directory = input.hasSuffix("/") ? String(input.dropLast()) : input
            let found = enumerator.compactMap { $0 as? String }
                .filter { $0.lowercased().hasSuffix(".png") }
                .map { "\(directory)/\($0)" }
                .filter { path in
                    var isSubdirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isSubdirectory) && !isSubdirectory.boolValue
                }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            guard !found.isEmpty else { throw InputError("no *.png files under \(input)") }
            files += found
        }
        return files
    }
}
