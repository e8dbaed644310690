import SketchFormats
import Foundation

/// One image file of a class-per-directory dataset (TU-Berlin layout).
public struct LabeledImageFile: Equatable, Sendable {
    /// Path of the file.
    public var path: String
    /// Class name: the name of the directory holding the file.
    public var className: String
    /// The split named by an enclosing `train` / `val` / `test` directory, or nil when the dataset
    /// has no split directories.
    public var directorySplit: String?
    /// A stable id for the image, unique in the dataset: `<split>/<class>/<file name>` relative to the root.
    public var keyID: String
}

/// Scans a directory of `<class>/*.png` images, optionally grouped in split directories.
///
/// Accepted layouts (file names are matched case-insensitively on the `.png` extension; other files
/// are not images of the dataset and are skipped):
/// - `ROOT/<class>/*.png`
/// - `ROOT/{train,val,test}/<class>/*.png` — when at least one of these split directories exists,
///   only they are scanned and each file keeps its split (TU-Berlin as distributed here).
/// Results are sorted by split, class and file name, so runs are deterministic.
public enum LabeledImageDirectory {
    /// Split directory names recognised under the root.
    public static let splitDirectoryNames = ["train", "val", "test"]

    /// Lists the images under `root`; throws when `root` is not a readable directory.
    public static func scan(_ root: String) throws -> [LabeledImageFile] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        let splits = splitDirectoryNames.filter { isDirectoryPath("\(root)/\($0)") }
        if splits.isEmpty { return try scanClasses(in: root, split: nil) }
        return try splits.flatMap { try scanClasses(in: "\(root)/\($0)", split: $0) }
    }

    /// The sorted class names present in `files`; a class's index in this list is its label.
    public static func classNames(of files: [LabeledImageFile]) -> [String] {
        Array(Set(files.map(\.className))).sorted()
    }

    private static func scanClasses(in directory: String, split: String?) throws -> [LabeledImageFile] {
        let classes = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { !$0.hasPrefix(".") && isDirectoryPath("\(directory)/\($0)") }.sorted()
        var files: [LabeledImageFile] = []
        for className in classes {
            let names = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(className)")
                .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
            for name in names {
                let key = [split, className, name].compactMap { $0 }.joined(separator: "/")
                files.append(LabeledImageFile(path: "\(directory)/\(className)/\(name)", className: className,
                                              directorySplit: split, keyID: key))
            }
        }
        return files
    }

    private static func isDirectoryPath(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
