#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors raised while writing output files.
public struct FileWriteError: Error, CustomStringConvertible, Sendable {
    /// The path being written.
    public var path: String
    /// What went wrong, including the system error text.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
}

/// Streams bytes to a temporary file next to `path` (`path.tmp-<pid>`) and renames it over
/// `path` on `commit()`, so readers never see a half-written file. The one atomic-write helper of
/// the project: text, NDJSON, NPY and TFRecord outputs, manifests and PNGs all go through it.
///
/// If the writer is discarded without `commit()`, or the rename fails, the temporary file is
/// removed. When `path` already exists and is not a regular file (e.g. `/dev/null` or a FIFO),
/// bytes are written to it directly, because such a target cannot be replaced by a rename. Writes
/// are buffered; bytes already written can be patched in place with ``overwrite(_:at:)`` (an NPY
/// header whose row count is known only at the end). No `fsync`: atomic against readers and
/// crashes of this process, not against power loss.
public final class AtomicFileWriter {
    /// The final destination.
    public let path: String
    /// Where bytes go until `commit()` (equal to `path` for non-regular targets).
    public let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let bufferCapacity = 1 << 20
    private var finished = false
    private var flushedBytes = 0
    /// Number of bytes accepted so far (buffered or flushed).
    public var bytesWritten: Int { flushedBytes + buffer.count }

    /// Opens the temporary file; creates no directories.
    public init(path: String) throws {
        self.path = path
        var status = stat()
        let isSpecialTarget = stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
        temporaryPath = isSpecialTarget ? path : "\(path).tmp-\(getpid())"
        let flags = isSpecialTarget ? O_WRONLY : (O_WRONLY | O_CREAT | O_TRUNC)
        descriptor = open(temporaryPath, flags | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        buffer.reserveCapacity(bufferCapacity)
    }

    deinit {
        if !finished {
            close(descriptor)
            if temporaryPath != path { unlink(temporaryPath) }
        }
    }

    /// Appends bytes.
    public func write<Bytes: Sequence>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferCapacity { try flush() }
    }

    /// Appends the UTF-8 encoding of `text`.
    public func write(_ text: String) throws {
        try write(text.utf8)
    }

    /// Appends the raw bytes of `values` (machine byte order).
    public func write<T: BitwiseCopyable>(rawValuesOf values: [T]) throws {
        values.withUnsafeBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= bufferCapacity { try flush() }
    }

    /// Replaces already written bytes at `offset` (the range must lie within ``bytesWritten``).
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        precondition(offset >= 0 && offset + bytes.count <= bytesWritten, "AtomicFileWriter.overwrite past the end")
        try flush()
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }

    /// Hands buffered bytes to the operating system.
    public func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        flushedBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and renames the temporary file over `path`.
    public func commit() throws {
        precondition(!finished, "AtomicFileWriter.commit() called twice")
        try flush()
        finished = true
        if close(descriptor) != 0 {
            throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        if temporaryPath != path, rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw FileWriteError(path: path, reason: reason)
        }
    }
}

/// Writes `bytes` to `path` atomically (temporary file in the same directory, then rename).
public func writeAtomically<Bytes: Sequence>(_ bytes: Bytes, to path: String) throws
where Bytes.Element == UInt8 {
    let writer = try AtomicFileWriter(path: path)
    try writer.write(bytes)
    try writer.commit()
}

/// Writes the UTF-8 encoding of `text` to `path` atomically.
public func writeAtomically(_ text: String, to path: String) throws {
    try writeAtomically(Array(text.utf8), to: path)
}

/// `write(2)`, named apart from `AtomicFileWriter.write` so the call is unambiguous.
@inline(__always)
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}
