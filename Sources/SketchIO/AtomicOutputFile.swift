import Foundation

/// A file written to `path.tmp-<pid>` in the destination directory and renamed onto `path` by
/// ``commit()``, so readers only ever see a complete file. Dropped without `commit()`, the
/// temporary file is removed. Supports patching already-written bytes (e.g. an NPY header whose
/// row count is known only at the end).
public final class AtomicOutputFile {
    /// Final destination.
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var committed = false
    /// Bytes written so far (buffered ones included).
    public private(set) var byteCount = 0

    private static let bufferLimit = 1 << 20

    /// Creates (truncates) the temporary file next to `path`.
    public init(path: String) throws {
        self.path = path
        self.temporaryPath = "\(path).tmp-\(getpid())"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor < 0 { throw OutputFileError.system("cannot create \(temporaryPath)", errno) }
        buffer.reserveCapacity(Self.bufferLimit)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporaryPath) }
    }

    /// Appends bytes.
    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        byteCount += bytes.count
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    /// Appends the raw bytes of `values` (machine byte order).
    public func write<T: BitwiseCopyable>(rawValuesOf values: [T]) throws {
        values.withUnsafeBytes { raw in buffer.append(contentsOf: raw) }
        byteCount += values.count * MemoryLayout<T>.stride
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    /// Overwrites bytes at `offset` (which must lie within what was written).
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        precondition(offset + bytes.count <= byteCount, "overwrite past the end")
        try flush()
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        if written != bytes.count { throw OutputFileError.system("cannot write \(temporaryPath)", errno) }
    }

    /// Flushes, closes and renames the temporary file onto `path`.
    public func commit() throws {
        try flush()
        if close(descriptor) != 0 { descriptor = -1; throw OutputFileError.system("cannot close \(temporaryPath)", errno) }
        descriptor = -1
        if rename(temporaryPath, path) != 0 { throw OutputFileError.system("cannot rename onto \(path)", errno) }
        committed = true
    }

    /// Writes `bytes` to `path` atomically in one call.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicOutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError.system("cannot write \(temporaryPath)", errno)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A failed file-system operation, with the OS reason.
public enum OutputFileError: Error, CustomStringConvertible {
    /// `what` failed with `errno`.
    case system(String, Int32)

    /// `what: reason`.
    public var description: String {
        switch self {
        case let .system(what, code): return "\(what): \(String(cString: strerror(code)))"
        }
    }
}
