import SketchFormats
import SketchIO

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

    /// The image at `path` of class `className`, in `directorySplit`'s split (nil: none), with id `keyID`.
    public init(path: String, className: String, directorySplit: String? = nil, keyID: String) {
        self.path = path
        self.className = className
        self.directorySplit = directorySplit
        self.keyID = keyID
    }
}

/// The images of a class-per-directory dataset, and the entries that could not be used.
public struct LabeledImageListing: Equatable, Sendable {
    /// The images, sorted by split, class and file name.
    public var files: [LabeledImageFile] = []
    /// `*.png` entries (or class directories) that cannot be read: dangling links, link loops,
    /// unreadable entries, non-UTF-8 names (see ``DirectoryWalk``).
    public var rejected: [RejectedLine] = []
    /// Warnings for `*.png` device files, FIFOs and sockets, which are skipped.
    public var skipped: [String] = []

    /// An empty listing.
    public init() {}
}

/// Scans a directory of `<class>/*.png` images, optionally grouped in split directories.
///
/// Accepted layouts (file names are matched case-insensitively on the `.png` extension; other files
/// are not images of the dataset and are skipped):
/// - `ROOT/<class>/*.png`
/// - `ROOT/{train,val,test}/<class>/*.png` — when at least one of these split directories exists,
///   only they are scanned and each file keeps its split (TU-Berlin as distributed here).
/// Results are sorted byte-wise by split, class and file name, so runs are deterministic. Entries
/// are classified without being opened, so a FIFO or a link to a device never blocks the scan.
public enum LabeledImageDirectory {
    /// Split directory names recognised under the root.
    public static let splitDirectoryNames = ["train", "val", "test"]

    /// Lists the images under `root`, the class directories on up to `threads` threads (the
    /// listing is the same for any count); throws `DatasetError` when `root` is not a readable
    /// directory.
    public static func scan(_ root: String, threads: Int = 1) throws -> LabeledImageListing {
        let top = try DirectoryWalk.entries(of: root)
        let splits = splitDirectoryNames.filter { name in
            top.contains { if case .directory(_, name) = $0 { true } else { false } }
        }
        var listing = LabeledImageListing()
        if splits.isEmpty {
            scanClasses(top, split: nil, threads: threads, into: &listing)
        } else {
            let base = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
            for split in splits {
                scanClasses(try DirectoryWalk.entries(of: "\(base)/\(split)"), split: split, threads: threads, into: &listing)
            }
        }
        return listing
    }

    /// The sorted class names present in `files`; a class's index in this list is its label.
    public static func classNames(of files: [LabeledImageFile]) -> [String] {
        Array(Set(files.map(\.className))).sorted()
    }

    private static func scanClasses(
        _ entries: [DirectoryWalk.Entry], split: String?, threads: Int, into listing: inout LabeledImageListing
    ) {
        // Each class directory's entries (a stat per image: the listing's cost), listed on
        // `threads` threads into their places, then taken in order.
        let listed = LockedValue([Result<[DirectoryWalk.Entry], IOError>?](repeating: nil, count: entries.count))
        ConcurrentIndices.forEach(entries.count, threads: threads) { index in
            guard case let .directory(directory, className) = entries[index], DataName.wordProblem(className) == nil else { return }
            let images = Result { () throws(IOError) in try DirectoryWalk.entries(of: directory) }
            listed.withLock { $0[index] = images }
        }
        for (index, entry) in entries.enumerated() {
            switch entry {
            case let .directory(directory, className):
                // A class name from the file system is data too: one rule for names (DataName).
                if let problem = DataName.wordProblem(className) {
                    listing.rejected.append(.file(directory, reason: "class directory: \(problem)"))
                    continue
                }
                let images: [DirectoryWalk.Entry]
                switch listed.withLock({ $0[index] }) {
                case .success(let entries)?: images = entries
                case .failure(let error)?:
                    listing.rejected.append(.file(directory, reason: error.description))
                    continue
                case nil: continue
                }
                for image in images where image.name.lowercased().hasSuffix(".png") {
                    switch image {
                    case let .file(path, name):
                        let key = [split, className, name].compactMap { $0 }.joined(separator: "/")
                        if let problem = DataName.textProblem(key, field: "key (relative path)") {
                            listing.rejected.append(.file(path, reason: problem))
                            continue
                        }
                        listing.files.append(
                            LabeledImageFile(
                                path: path, className: className,
                                directorySplit: split, keyID: key))
                    case .directory:
                        continue
                    case let .special(path, _, kind):
                        listing.skipped.append("skipped \(path): \(kind), not a regular file")
                    case let .unusable(path, _, reason):
                        listing.rejected.append(.file(path, reason: reason))
                    case let .undecodableName(path, _, _):
                        listing.rejected.append(.file(path, reason: DirectoryWalk.undecodableNameReason))
                    }
                }
            case let .undecodableName(path, _, isDirectory) where isDirectory:
                listing.rejected.append(.file(path, reason: DirectoryWalk.undecodableNameReason))
            default:
                continue
            }
        }
    }
}
