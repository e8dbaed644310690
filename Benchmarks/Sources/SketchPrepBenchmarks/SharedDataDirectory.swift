import Foundation

/// Where the shared Quick, Draw! / TU-Berlin data lives: `$SKETCHPREP_SHARED`, else
/// `../shared/data` beside the repository (relative to the current directory).
enum SharedDataDirectory {
    /// The directory path.
    static var path: String { ProcessInfo.processInfo.environment["SKETCHPREP_SHARED"] ?? "../shared/data" }
}
