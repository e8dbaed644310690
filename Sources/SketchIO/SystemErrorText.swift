import Foundation
import SystemPackage

/// The text of a system or Foundation failure for a user message, without Foundation's dump
/// (`Error Domain=NSCocoaErrorDomain Code=…`): the `strerror` text of the underlying errno, plus
/// what to do for the common cases.
package func systemErrorText(_ error: any Error) -> String {
    if let errno = errnoOf(error) { return describe(errno) }
    return error.localizedDescription
}

/// The reason a write of `path` failed, for a user message: for a permission error, the place
/// that refuses it — the nearest existing directory above `path` when that is not writable (an
/// output is created there, through a temporary file beside it), else `path` itself — instead of
/// the bare system text; otherwise ``systemErrorText(_:)``.
package func writeErrorText(_ error: any Error, path: String) -> String {
    guard let code = errnoOf(error), code == .permissionDenied || code == .readOnlyFileSystem else { return systemErrorText(error) }
    var directory = parentDirectory(of: path)
    while case .failure(.noSuchFileOrDirectory) = Result(catching: { () throws(Errno) in try FileSystem.checkAccess(directory, F_OK) }),
        directory != parentDirectory(of: directory)
    {
        directory = parentDirectory(of: directory)
    }
    if (try? FileSystem.checkAccess(directory, W_OK | X_OK)) == nil {
        return "the directory \(directory) is not writable (\(code.description)); choose an output in a directory you may write to"
    }
    if (try? FileSystem.checkAccess(path, F_OK)) != nil, (try? FileSystem.checkAccess(path, W_OK)) == nil {
        return "\(path) is not writable (\(code.description))"
    }
    return describe(code)
}

/// The errno behind a system or Foundation error, when there is one.
private func errnoOf(_ error: any Error) -> Errno? {
    if let errno = error as? Errno { return errno }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return Errno(rawValue: Int32(error.code)) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return Errno(rawValue: Int32(underlying.code))
    }
    if error.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return .noSuchFileOrDirectory
        case .fileReadNoPermission, .fileWriteNoPermission: return .permissionDenied
        case .fileWriteOutOfSpace: return .noSpace
        case .fileWriteFileExists: return .fileExists
        default: break
        }
    }
    return nil
}

private func describe(_ errno: Errno) -> String {
    switch errno {
    case .noSpace: "\(errno.description) (free some space and run again)"
    case .permissionDenied: "\(errno.description) (check the file's permissions)"
    case .noSuchFileOrDirectory: "\(errno.description) (check the path)"
    case .notDirectory: "\(errno.description) (a part of the path is a file, not a directory)"
    default: errno.description
    }
}

/// Creates the directory `path` and any missing parents (nothing when it exists); throws
/// `IOError` naming the path and the system's reason.
package func createDirectories(_ path: String) throws(IOError) {
    do {
        try FileSystem.makeDirectories(path)
    } catch {
        throw IOError.write(path: path, error: error)
    }
}
