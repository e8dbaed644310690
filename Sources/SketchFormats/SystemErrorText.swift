import SystemPackage

/// The text of a system call's failure for a user message: `Errno`'s description (the
/// `strerror` text, e.g. `No space left on device`) plus what to do for the common cases.
package func systemErrorText(_ error: any Error) -> String {
    guard let errno = error as? Errno else { return "\(error)" }
    switch errno {
    case .noSpace: return "\(errno.description) (free some space and run again)"
    case .permissionDenied: return "\(errno.description) (check the file's permissions)"
    case .noSuchFileOrDirectory: return "\(errno.description) (check the path)"
    default: return errno.description
    }
}
