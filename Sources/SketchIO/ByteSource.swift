import CZlib
import SystemPackage

/// A damaged stretch of a gzip input: where its member starts and what was wrong.
package struct SourceDamage: Equatable, Sendable {
    /// Offset in the stored (compressed) file of the damaged member's first byte.
    package var byteOffset: Int
    /// What was wrong, e.g. `gzip member CRC mismatch`.
    package var reason: String
}

/// Reads the bytes of one input (a file or stdin), inflating gzip transparently.
///
/// Gzip is detected from the magic bytes `1f 8b`, not from the file name, so compressed stdin
/// works too. Concatenated gzip members are inflated one after another, as `gzip -d` does.
/// Memory use is two fixed buffers whatever the input size. The input is read once, front to
/// back, so pipes, FIFOs and `/dev/stdin` work; with `hashing` the stored bytes are hashed on
/// the way (``digest()``), from the second read on by a thread of their own
/// (``BackgroundSHA256``). Damage does not stop the bytes already decoded: a member whose CRC
/// or length check fails still yields all its bytes and reading goes on with the next member;
/// a truncated tail or corrupt deflate data yields the bytes decoded before it and ends the
/// stream there. Each damaged member is recorded once in `damage`.
package final class ByteSource {
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    private var input: [UInt8]
    /// Bytes asked of the file per read (the size of `input`).
    private let readSize: Int
    private var inputStart = 0
    private var inputEnd = 0
    private var sawEndOfInput = false
    private var isGzip = false
    private var zlib = z_stream()
    private var zlibReady = false
    private var memberFinished = false
    /// The SHA-256 of the stored bytes read so far, when hashing: computed here while they fit in
    /// one `readSize`, then on a thread of its own (``BackgroundSHA256``), so that an input of at
    /// most one read's size (a small file) starts no thread.
    private enum StoredHash {
        case here(SHA256Hasher)
        case inBackground(BackgroundSHA256)
    }
    private var hash: StoredHash?
    /// Stored-file offset where the current gzip member starts.
    private var memberStart = 0
    /// Damaged gzip members found so far, in input order.
    package private(set) var damage: [SourceDamage] = []
    /// Set once damage ends the stream: every later read returns 0.
    package private(set) var stoppedByDamage = false
    /// Raw (possibly compressed) bytes taken from the descriptor so far.
    package private(set) var consumedInputBytes = 0
    /// Stored bytes still to read when only a range of the file is read; nil: to the end.
    private var remainingInRange: Int?

    /// Opens `path`, or wraps stdin when `path` is `-`; `hashing` hashes the raw bytes as they are read.
    /// With `range`, only those stored bytes of a regular file are read (an input chunk of a
    /// partitioned run; a range never starts inside a gzip file).
    package init(path: String, readSize: Int = 1 << 18, hashing: Bool = false, range: Range<Int>? = nil) throws {
        if path == "-" {
            descriptor = .standardInput
            ownsDescriptor = false
        } else {
            do {
                descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
            } catch {
                throw IOError(.read, systemErrorText(error))
            }
            ownsDescriptor = true
        }
        if let range {
            do {
                _ = try descriptor.seek(offset: Int64(range.lowerBound), from: .start)
            } catch {
                throw IOError(.read, "cannot seek to byte \(range.lowerBound): \(systemErrorText(error))")
            }
            remainingInRange = range.count
        }
        // Only bytes that `read` has filled are ever looked at, so the buffer needs no zero fill
        // (it cost a 256 KB memset per input file).
        self.readSize = readSize
        input = [UInt8](unsafeUninitializedCapacity: readSize) { _, initializedCount in initializedCount = readSize }
        if hashing { hash = .here(SHA256Hasher()) }
        // A small first read shows gzip's magic and any error reading the input at once, and
        // leaves the rest of a plain input to be read straight into the caller's buffer
        // (``readPlain(into:)``) instead of copied out of `input`.
        try fillInput(upTo: Self.firstReadBytes)
        isGzip = inputEnd - inputStart >= 2 && input[inputStart] == 0x1f && input[inputStart + 1] == 0x8b
        if isGzip { try startGzipMember() }
    }

    deinit {
        if case .inBackground(let background)? = hash { background.abandon() }
        if zlibReady { inflateEnd(&zlib) }
        if ownsDescriptor { try? descriptor.close() }
    }

    /// SHA-256 (lower-case hex) of the raw bytes read so far, or nil when not hashing. Call it
    /// once, after the last read.
    package func digest() -> String? {
        guard let hash else { return nil }
        self.hash = nil
        switch hash {
        case .here(var hasher): return hasher.finalize().hexString
        case .inBackground(let background): return background.finalize().hexString
        }
    }

    /// Fills `buffer` with up to `buffer.count` decoded bytes; returns 0 only at the end of input.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        isGzip ? try inflate(into: buffer) : try readPlain(into: buffer)
    }

    private func readPlain(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if inputStart == inputEnd {
            if sawEndOfInput { return 0 }
            // Nothing is buffered: a caller with room for a whole read gets it straight from the
            // file, without the copy through `input`.
            if buffer.count >= readSize { return try readStored(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<readSize])) }
            try fillInput()
            if inputStart == inputEnd { return 0 }
        }
        let count = min(buffer.count, inputEnd - inputStart)
        input.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + inputStart, byteCount: count)
        }
        inputStart += count
        return count
    }

    /// Bytes of the read made when opening (at most `readSize`).
    private static let firstReadBytes = 4096

    /// Refills `input` with the next stored bytes, at most `limit` (none at the end).
    private func fillInput(upTo limit: Int = .max) throws {
        inputStart = 0
        inputEnd = 0
        let count = try input.withUnsafeMutableBytes {
            try readStored(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min($0.count, limit)]))
        }
        inputEnd = count
    }

    /// Reads the next stored bytes into `destination` (at most its size and what the range has
    /// left), hashing and counting them; 0 only at the end of the input.
    private func readStored(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        var count = 0
        while !sawEndOfInput && count == 0 {
            do {
                let wanted = min(destination.count, remainingInRange ?? destination.count)
                count = wanted == 0 ? 0 : try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: destination[0..<wanted]))
                if let remaining = remainingInRange { remainingInRange = remaining - count }
            } catch {
                throw IOError(.read, "read error: \(systemErrorText(error))")
            }
            if count == 0 { sawEndOfInput = true }
            if count > 0, let hash { self.hash = hashing(UnsafeRawBufferPointer(rebasing: destination[0..<count]), into: hash) }
            consumedInputBytes += count
        }
        return count
    }

    /// `hash` after `bytes`: the first read's bytes are hashed here, a later read starts the
    /// thread that hashes the rest.
    private func hashing(_ bytes: UnsafeRawBufferPointer, into hash: StoredHash) -> StoredHash {
        switch hash {
        case .here(var hasher) where consumedInputBytes + bytes.count <= readSize:
            hasher.update(bytes.assumingMemoryBound(to: UInt8.self))
            return .here(hasher)
        case .here(let hasher):
            let background = BackgroundSHA256(bufferBytes: readSize, continuing: hasher)
            background.update(bytes)
            return .inBackground(background)
        case .inBackground(let background):
            background.update(bytes)
            return hash
        }
    }

    /// Stored-file offset of the next unread input byte.
    private var storedOffset: Int { consumedInputBytes - (inputEnd - inputStart) }

    private func startGzipMember() throws {
        memberStart = storedOffset
        if zlibReady {
            inflateReset(&zlib)
        } else {
            // 15 window bits + 16: gzip wrapper only.
            let status = inflateInit2_(&zlib, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw IOError(.read, "zlib initialisation failed (\(status))") }
            zlibReady = true
        }
        memberFinished = false
    }

    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if stoppedByDamage { return 0 }
            if memberFinished {
                // Skip the padding zeros some tools append, then look for another member.
                while true {
                    if inputStart == inputEnd {
                        if sawEndOfInput { return 0 }
                        try fillInput()
                        continue
                    }
                    if input[inputStart] == 0 { inputStart += 1 } else { break }
                }
                try startGzipMember()
            }
            if inputStart == inputEnd && !sawEndOfInput { try fillInput() }
            let available = inputEnd - inputStart
            let (status, produced, used) = input.withUnsafeMutableBytes { raw in
                zlib.next_in = raw.baseAddress!.assumingMemoryBound(to: Bytef.self) + inputStart
                zlib.avail_in = uInt(available)
                zlib.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                zlib.avail_out = uInt(buffer.count)
                let status = CZlib.inflate(&zlib, Z_NO_FLUSH)
                return (status, buffer.count - Int(zlib.avail_out), available - Int(zlib.avail_in))
            }
            inputStart += used
            switch status {
            case Z_STREAM_END:
                memberFinished = true
                if produced > 0 { return produced }
            case Z_OK:
                if produced > 0 { return produced }
            case Z_BUF_ERROR where available == 0 && sawEndOfInput:
                stop(reason: "truncated gzip member (input ends before its end-of-stream marker)")
                return produced
            case Z_BUF_ERROR:
                continue
            case Z_DATA_ERROR where Self.isTrailerCheck(zlib.msg):
                // The member's data decoded completely; only its CRC-32 or length disagrees.
                let message = String(cString: zlib.msg!)
                damage.append(SourceDamage(byteOffset: memberStart, reason: "gzip member \(message) (its records are kept)"))
                memberFinished = true
                // zlib stops at a bad CRC-32 before the 4-byte length field; skip that field.
                if message.contains("data check") { try skipInput(4) }
                if produced > 0 { return produced }
                continue
            default:
                let message = zlib.msg.map { String(cString: $0) } ?? "error \(status)"
                stop(reason: "corrupt gzip data: \(message) (reading of this input stops here)")
                return produced
            }
            if available == 0 && used == 0 && produced == 0 && sawEndOfInput {
                stop(reason: "truncated gzip member (input ends before its end-of-stream marker)")
                return 0
            }
        }
    }
}

extension ByteSource {
    /// Records damage at the current member and ends the stream.
    private func stop(reason: String) {
        damage.append(SourceDamage(byteOffset: memberStart, reason: reason))
        stoppedByDamage = true
    }

    /// Whether zlib's message is the failed CRC-32 or length check of a gzip trailer.
    private static func isTrailerCheck(_ message: UnsafePointer<CChar>?) -> Bool {
        guard let message else { return false }
        let text = String(cString: message)
        return text == "incorrect data check" || text == "incorrect length check"
    }

    /// Drops up to `count` input bytes (fewer when the input ends first).
    private func skipInput(_ count: Int) throws {
        var remaining = count
        while remaining > 0 {
            if inputStart == inputEnd {
                if sawEndOfInput { return }
                try fillInput()
                continue
            }
            let step = min(remaining, inputEnd - inputStart)
            inputStart += step
            remaining -= step
        }
    }
}
