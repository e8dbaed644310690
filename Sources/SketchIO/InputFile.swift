import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads of inputs (PNG images, NPY arrays, manifests), with a size cap checked
/// while reading, so a path that names `/dev/zero` or an endless pipe fails instead of filling
/// memory. Errors are `IOError`s that name the path and the system's reason.
package enum InputFile {
    /// The most bytes ``readAll(_:maximumBytes:)`` reads from a stream (pipe, FIFO, device) by
    /// default: 256 MiB. A regular file is bounded by its own size.
    package static let defaultStreamMaximumBytes = 256 << 20

    /// Reads all bytes of `path` (any kind of file: regular, FIFO, device) in one pass; throws
    /// `IOError` when it cannot be opened or read, or holds more than `maximumBytes` (when
    /// nil: no cap for a regular file, ``defaultStreamMaximumBytes`` for anything else).
    package static func readAll(_ path: String, maximumBytes: Int? = nil) throws(IOError) -> [UInt8] {
        let descriptor = try open(path)
        defer { try? descriptor.close() }
        var status = stat()
        let isRegular = fstat(descriptor.rawValue, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        let maximumBytes = maximumBytes ?? (isRegular ? Int.max : defaultStreamMaximumBytes)
        var bytes: [UInt8] = []
        if isRegular { bytes.reserveCapacity(min(Int(status.st_size), maximumBytes)) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw IOError(.input, "cannot read \(path): \(systemErrorText(error))")
            }
            if count == 0 { return bytes }
            guard count <= maximumBytes - bytes.count else {
                throw IOError(
                    .input,
                    "\(path) is larger than \(maximumBytes) bytes, the most read as one file"
                        + " (is it a device or an endless stream?)")
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}

extension InputFile {
    /// Size and SHA-256 (lower-case hex) of the file at `path`, read 1 MiB at a time (constant
    /// memory); throws `IOError` naming the path when it cannot be opened or read.
    package static func measure(_ path: String, range: Range<Int>? = nil) throws(IOError) -> (bytes: Int, sha256: String) {
        let descriptor = try open(path)
        defer { try? descriptor.close() }
        var hash = SHA256Hasher()
        var total = 0
        // Uninitialized: every byte hashed is one `read` just put there (no 1 MiB zero fill per file).
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
        defer { buffer.deallocate() }
        if let range {
            do {
                _ = try descriptor.seek(offset: Int64(range.lowerBound), from: .start)
            } catch {
                throw IOError(.input, "cannot read \(path): \(systemErrorText(error))")
            }
        }
        while true {
            let count: Int
            let wanted = min(buffer.count, range.map { $0.count - total } ?? buffer.count)
            do {
                count =
                    wanted == 0
                    ? 0
                    : try descriptor.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted])))
            } catch {
                throw IOError(.input, "cannot read \(path): \(systemErrorText(error))")
            }
            if count == 0 { return (total, hash.finalize().hexString) }
            total += count
            hash.update(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}

extension InputFile {
    /// Opens `path` for reading; the error names the path.
    private static func open(_ path: String) throws(IOError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw IOError(.input, "cannot open \(path): \(systemErrorText(error))")
        }
    }
}
