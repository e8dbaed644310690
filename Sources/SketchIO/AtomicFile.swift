import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams bytes to a temporary file next to `path` (`path.tmp-<host>-<pid>-<random>`) and renames it over
/// `path` on `commit()`, so readers never see a half-written file. The one atomic-write helper of
/// the project: text, NDJSON, NPY and TFRecord outputs, manifests and PNGs all go through it.
///
/// If the writer is discarded without `commit()`, or the rename fails, the temporary file is
/// removed. The first writer of a process in a directory removes that directory's stale temporary
/// files: those of this host whose process is gone (a run killed before it could clean up), never
/// another host's (partitions of a cluster run may share the file system) nor a live process's.
/// When `path` is a stream (``OutputTarget/isStream(_:)``: `-` for standard output, `/dev/null`,
/// a FIFO), bytes are written to it directly, because such a target cannot be replaced by a
/// rename; a writer made with `spoolsStream` (a file whose header is patched at the end, such as
/// an NPY) instead spools to a temporary file in the temporary directory and copies it to the
/// stream on `commit()`, so the stream receives the file only when it is complete. Writes
/// are buffered; bytes already written can be patched in place with ``overwrite(_:at:)`` (an NPY
/// header whose row count is known only at the end). The file is `fsync`ed before the rename, so
/// after a power loss the path holds the old bytes or the new ones, never an empty or partial file.
public final class AtomicFileWriter {
    /// The final destination.
    public let path: String
    /// Where bytes go until `commit()` (equal to `path` for non-regular targets).
    public let temporaryPath: String
    private var descriptor: FileDescriptor
    /// The stream that receives the spooled file on `commit()` (nil unless spooling).
    private let spooledStream: String?
    private var buffer: [UInt8] = []
    private let bufferCapacity = 1 << 20
    private var finished = false
    private var flushedBytes = 0
    /// Whether ``commit()`` syncs the file before renaming it.
    private let syncsBeforeRename: Bool
    /// Bytes handed to the disk ahead of the sync (``startWriteback()``).
    private var writebackOffset = 0
    /// Bytes written between two early writebacks.
    static let writebackBytes = 16 << 20
    /// Number of bytes accepted so far (buffered or flushed).
    public var bytesWritten: Int { flushedBytes + buffer.count }

    /// Opens the temporary file; creates no directories.
    ///
    /// The temporary file is created exclusively and never through a symbolic link
    /// (`O_CREAT|O_EXCL|O_NOFOLLOW`) under a fresh unguessable name, and registered with
    /// ``TemporaryFiles`` until it is renamed or removed. `spoolsStream`: see the type's description.
    /// `syncsBeforeRename: false` leaves out the `fsync` before the rename, for a file inside a
    /// staging area that is synced as a whole before it is published (``Durability/syncFileSystem(holding:)``):
    /// a dataset of one file per example would otherwise wait for one disk flush per file.
    public init(path: String, spoolsStream: Bool = false, syncsBeforeRename: Bool = true) throws {
        self.path = path
        self.syncsBeforeRename = syncsBeforeRename
        let isStream = OutputTarget.isStream(path)
        let spools = isStream && spoolsStream
        spooledStream = spools ? path : nil
        let isSpecialTarget = isStream && !spoolsStream
        let temporaryBase = spools ? Self.spoolBase : path
        if !isSpecialTarget { TemporaryFileName.removeStaleFiles(nextTo: temporaryBase) }
        var opened: (String, FileDescriptor)?
        var lastError: Error?
        for _ in 0..<(isSpecialTarget ? 1 : 8) {
            if isSpecialTarget && path == OutputTarget.standardOutput {
                do {
                    opened = (path, try FileDescriptor.standardOutput.duplicate())
                } catch {
                    lastError = error
                }
                break
            }
            let candidate = isSpecialTarget ? path : TemporaryFileName.forWriting(temporaryBase)
            let options: FileDescriptor.OpenOptions =
                isSpecialTarget
                ? [.closeOnExec] : [.create, .exclusiveCreate, .noFollow, .closeOnExec]
            let open = {
                try FileDescriptor.open(
                    candidate, spools ? .readWrite : .writeOnly, options: options,
                    permissions: [
                        .ownerReadWrite, .groupRead, .otherRead,
                    ])
            }
            do {
                opened = (candidate, isSpecialTarget ? try open() : try TemporaryFiles.create(candidate, open))
                break
            } catch {
                lastError = error
                guard (error as? Errno) == .fileExists else { break }
            }
        }
        guard let (temporaryPath, descriptor) = opened else {
            throw lastError.map { IOError.write(path: path, error: $0) }
                ?? IOError.write(path: path, reason: "cannot create a temporary file")
        }
        self.temporaryPath = temporaryPath
        self.descriptor = descriptor
    }

    deinit {
        if !finished {
            try? descriptor.close()
            if temporaryPath != path {
                try? FileSystem.remove(temporaryPath)
                TemporaryFiles.unregister(temporaryPath)
            }
        }
    }

    /// Appends bytes.
    public func write<Bytes: Sequence>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        if buffer.capacity == 0 { buffer.reserveCapacity(bufferCapacity) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferCapacity { try flush() }
    }

    /// Appends `bytes`; while nothing is buffered, a block of at least the buffer's capacity
    /// (1 MiB), or of any size when `unbuffered`, goes to the operating system as it is, without a
    /// copy into the buffer (a caller that buffers its own output, such as a shard writer, hands
    /// it over this way).
    public func write(contiguous bytes: UnsafeRawBufferPointer, unbuffered: Bool = false) throws {
        guard buffer.isEmpty, unbuffered || bytes.count >= bufferCapacity else { return try write(bytes) }
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw IOError.write(path: path, error: error)
        }
        flushedBytes += bytes.count
        startWriteback()
    }

    /// Appends the UTF-8 encoding of `text`.
    public func write(_ text: String) throws {
        try write(text.utf8)
    }

    /// Appends the raw bytes of `values` (machine byte order).
    public func write<T: BitwiseCopyable>(rawValuesOf values: [T]) throws {
        if buffer.capacity == 0 { buffer.reserveCapacity(bufferCapacity) }
        values.withUnsafeBytes { buffer.append(contentsOf: $0) }
        if buffer.count >= bufferCapacity { try flush() }
    }

    /// Replaces already written bytes at `offset` (the range must lie within ``bytesWritten``).
    public func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        precondition(offset >= 0 && offset + bytes.count <= bytesWritten, "AtomicFileWriter.overwrite past the end")
        try flush()
        do {
            _ = try descriptor.writeAll(toAbsoluteOffset: Int64(offset), bytes)
        } catch {
            throw IOError.write(path: path, error: error)
        }
    }

    /// Hands buffered bytes to the operating system.
    public func flush() throws {
        do {
            _ = try descriptor.writeAll(buffer)
        } catch {
            throw IOError.write(path: path, error: error)
        }
        flushedBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
        startWriteback()
    }

    /// For a file ``commit()`` syncs: once ``writebackBytes`` more have been written, starts their
    /// writing to disk without waiting (`FileSystem.startWriteback`), so the disk works while the
    /// file grows and the sync at the commit waits only for the last of it.
    private func startWriteback() {
        guard syncsBeforeRename && spooledStream == nil && temporaryPath != path, flushedBytes - writebackOffset >= Self.writebackBytes
        else { return }
        // A hint: the sync at the commit reports any failure to write.
        try? FileSystem.startWriteback(descriptor.rawValue, offset: writebackOffset, count: flushedBytes - writebackOffset)
        writebackOffset = flushedBytes
    }

    /// Where spooled streams wait: `sketchprep-spool` in `$TMPDIR` (default `/tmp`).
    private static var spoolBase: String {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/sketchprep-spool"
    }

    /// Flushes, closes and renames the temporary file over `path` (a spooled stream: copies it to
    /// the stream and removes it).
    public func commit() throws {
        precondition(!finished, "AtomicFileWriter.commit() called twice")
        try flush()
        finished = true
        if let stream = spooledStream {
            defer {
                try? descriptor.close()
                try? FileSystem.remove(temporaryPath)
                TemporaryFiles.unregister(temporaryPath)
            }
            try copySpool(to: stream)
            return
        }
        if temporaryPath != path && syncsBeforeRename { try Durability.syncFile(descriptor.rawValue, path: path) }
        do {
            try descriptor.close()
        } catch {
            throw IOError.write(path: path, error: error)
        }
        guard temporaryPath != path else { return }
        defer { TemporaryFiles.unregister(temporaryPath) }
        // rename() replaces a symbolic link planted at `path` itself; it never writes through it.
        do {
            try FileSystem.rename(temporaryPath, to: path)
        } catch {
            try? FileSystem.remove(temporaryPath)
            throw IOError(.write, path: path, errno: error)
        }
    }
}

extension AtomicFileWriter {
    /// Copies the spooled bytes, 1 MiB at a time, to `stream` (`-`: standard output).
    fileprivate func copySpool(to stream: String) throws {
        let target: FileDescriptor
        do {
            target =
                stream == OutputTarget.standardOutput
                ? try FileDescriptor.standardOutput.duplicate()
                : try FileDescriptor.open(stream, .writeOnly, options: [.closeOnExec])
        } catch {
            throw IOError.write(path: path, reason: systemErrorText(error))
        }
        defer { try? target.close() }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: offset, into: $0) }
                guard count > 0 else { return }
                _ = try chunk[..<count].withUnsafeBytes { try target.writeAll($0) }
            } catch {
                throw IOError.write(path: path, reason: systemErrorText(error))
            }
            offset += Int64(count)
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

/// Writes `bytes` to `path` atomically, handing them to the operating system as they are (no
/// copy into a buffer).
public func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let writer = try AtomicFileWriter(path: path)
    try bytes.withUnsafeBytes { try writer.write(contiguous: $0, unbuffered: true) }
    try writer.commit()
}

/// Writes the UTF-8 encoding of `text` to `path` atomically.
public func writeAtomically(_ text: String, to path: String) throws {
    try writeAtomically(Array(text.utf8), to: path)
}
