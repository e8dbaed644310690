import SystemPackage

/// The directory part of `path`, `.` when it has none (`out` → `.`, `a/b` → `a`, `/a` → `/`).
///
/// Through swift-system's `FilePath`: Foundation's `NSString.deletingLastPathComponent` traps on
/// one-character paths (`-o d`) in the Swift 6.3 toolchain.
package func parentDirectory(of path: String) -> String {
    let parent = FilePath(path).removingLastComponent()
    return parent.isEmpty ? "." : parent.string
}
