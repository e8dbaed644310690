import SystemPackage

/// Whole-file reads of small inputs (PNG images, NPY arrays, manifests), with a size cap checked
/// while reading, so a path that names `/dev/zero` or an endless pipe fails instead of filling
/// memory. Errors are `InputError`s that name the path and the system's reason.
public enum InputFile {
    /// The largest file ``readAll(_:maximumBytes:)`` accepts by default: 256 MiB.
    public static let defaultMaximumBytes = 256 << 20

    /// Reads all bytes of `path` (any kind of file: regular, FIFO, device) in one pass; throws
    /// `InputError` when it cannot be opened or read, or holds more than `maximumBytes`.
    public static func readAll(_ path: String, maximumBytes: Int = defaultMaximumBytes) throws(InputError) -> [UInt8] {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw InputError("cannot open \(path): \(systemErrorText(error))")
        }
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw InputError("cannot read \(path): \(systemErrorText(error))")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumBytes else {
                throw InputError("\(path) is larger than \(maximumBytes) bytes, the most read as one file"
                    + " (is it a device or an endless stream?)")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}

extension InputFile {
    /// Size and SHA-256 (lower-case hex) of the file at `path`, read in 1 MiB chunks (constant
    /// memory); throws `InputError` naming the path when it cannot be opened or read.
    public static func measure(_ path: String) throws(InputError) -> (bytes: Int, sha256: String) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        } catch {
            throw InputError("cannot open \(path): \(systemErrorText(error))")
        }
        defer { try? descriptor.close() }
        var hash = SHA256()
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw InputError("cannot read \(path): \(systemErrorText(error))")
            }
            if count == 0 { return (total, hash.finalize().hexString) }
            total += count
            chunk.withUnsafeBufferPointer { hash.update(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
