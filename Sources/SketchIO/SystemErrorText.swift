import Foundation
import SystemPackage

/// The text of a system or Foundation failure for a user message, without Foundation's dump
/// (`Error Domain=NSCocoaErrorDomain Code=…`): the `strerror` text of the underlying errno, plus
/// what to do for the common cases.
package func systemErrorText(_ error: any Error) -> String {
    if let errno = error as? Errno { return describe(errno) }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return describe(Errno(rawValue: Int32(error.code))) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return describe(Errno(rawValue: Int32(underlying.code)))
    }
    if error.domain == NSCocoaErrorDomain {
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return describe(.noSuchFileOrDirectory)
        case .fileReadNoPermission, .fileWriteNoPermission: return describe(.permissionDenied)
        case .fileWriteOutOfSpace: return describe(.noSpace)
        case .fileWriteFileExists: return describe(.fileExists)
        default: break
        }
    }
    return error.localizedDescription
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
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        throw IOError.write(path: path, reason: systemErrorText(error))
    }
}
