#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one EINTR rule of SketchIO's own system calls (the directory swap, the output lock,
/// `fsync`): a call that a signal interrupted before it did anything is made again; any other
/// failure is returned with its errno.
package func retryingOnInterrupt(_ call: () -> Int32) -> Int32 {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// The `strerror` text of the current errno.
package func currentErrorText() -> String {
    String(cString: strerror(errno))
}
