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
        let regularSize = regularFileSize(descriptor)
        let maximumBytes = maximumBytes ?? (regularSize != nil ? Int.max : defaultStreamMaximumBytes)
        var bytes: [UInt8] = []
        if let regularSize { bytes.reserveCapacity(min(Int(regularSize), maximumBytes)) }
        let buffer = scratchBuffer(maximumBytes: 1 << 16, regularFileSize: regularSize)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do {
                count = try descriptor.read(into: buffer)
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
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Uninitialised read space (callers deallocate it): `maximumBytes`, or a regular file's size
    /// plus one byte (which lets the read that finds the end come at once) when that is smaller.
    /// Never zero-filled: a 4.7 KB PNG read through a zeroed 1 MiB buffer spent more CPU on the
    /// zeros than on its bytes (3 % of a TU-Berlin run, Benchmarks/README.md).
    static func scratchBuffer(maximumBytes: Int, regularFileSize: Int64?) -> UnsafeMutableRawBufferPointer {
        var count = maximumBytes
        if let regularFileSize, regularFileSize >= 0, regularFileSize < Int64(maximumBytes) {
            count = Swift.max(1, Int(regularFileSize) + 1)
        }
        return UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
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
        let buffer = scratchBuffer(maximumBytes: 1 << 20, regularFileSize: range == nil ? regularFileSize(descriptor) : nil)
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
                    : try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            } catch {
                throw IOError(.input, "cannot read \(path): \(systemErrorText(error))")
            }
            if count == 0 { return (total, hash.finalize().hexString) }
            total += count
            hash.update(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[0..<count]))
        }
    }
}

extension InputFile {
    /// The size of the regular file open as `descriptor`; nil for anything else (a stream).
    private static func regularFileSize(_ descriptor: FileDescriptor) -> Int64? {
        guard let status = try? FileSystem.status(descriptor: descriptor.rawValue), status.isRegular else { return nil }
        return status.size
    }

    /// Opens `path` for reading; the error names the path.
    private static func open(_ path: String) throws(IOError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw IOError(.input, "cannot open \(path): \(systemErrorText(error))")
        }
    }
}
