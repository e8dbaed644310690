#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of input handed out by `LineSplitter`.
package enum SplitLine {
    /// A complete line (without `\n` or a trailing `\r`), valid until the next call.
    case line(UnsafeBufferPointer<UInt8>)
    /// A line longer than the limit: its first `limit` bytes; the rest is skipped.
    case overlong(prefix: [UInt8])
    /// The source failed; `partial` holds the bytes of the unfinished line.
    case failed(reason: String, partial: [UInt8])
}

/// Splits a `ByteSource` into lines through one reusable buffer.
///
/// The buffer grows only as far as the longest line (capped by `maximumLineLength`), so memory
/// stays constant in the input size.
package struct LineSplitter {
    private let source: ByteSource
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var scanFrom = 0
    private var atEnd = false
    private var skippingOverlong = false
    /// Longest accepted line in bytes.
    package let maximumLineLength: Int

    package init(source: ByteSource, initialCapacity: Int = 1 << 20, maximumLineLength: Int) {
        self.source = source
        self.maximumLineLength = maximumLineLength
        buffer = .allocate(byteCount: max(initialCapacity, 16), alignment: 16)
    }

    /// Frees the buffer; call once when done.
    package func deallocate() { buffer.deallocate() }

    /// The next line, or nil at the end of input.
    package mutating func next() -> SplitLine? {
        while true {
            if scanFrom < end {
                let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if let found = memchr(base + scanFrom, 0x0A, end - scanFrom) {
                    let newline = UnsafeMutableRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                    let lineStart = start
                    start = newline + 1
                    scanFrom = start
                    if skippingOverlong {
                        skippingOverlong = false
                        continue
                    }
                    var length = newline - lineStart
                    if length > 0 && base[lineStart + length - 1] == 0x0D { length -= 1 }
                    if length > maximumLineLength {
                        return .overlong(prefix: Array(UnsafeBufferPointer(start: base + lineStart, count: maximumLineLength)))
                    }
                    return .line(UnsafeBufferPointer(start: base + lineStart, count: length))
                }
                scanFrom = end
            }
            if skippingOverlong {
                start = end
            } else if end - start > maximumLineLength {
                let prefix = Array(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + maximumLineLength)]))
                skippingOverlong = true
                start = end
                scanFrom = end
                return .overlong(prefix: prefix)
            }
            if atEnd {
                guard start < end else { return nil }
                let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var length = end - start
                if base[start + length - 1] == 0x0D { length -= 1 }
                let line = UnsafeBufferPointer(start: base + start, count: length)
                start = end
                scanFrom = end
                return .line(line)
            }
            compactAndGrow()
            do {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
                if count == 0 { atEnd = true }
                end += count
            } catch {
                let partial = skippingOverlong ? [] : Array(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                start = end
                scanFrom = end
                atEnd = true
                let reason = (error as? IOError)?.reason ?? "\(error)"
                return .failed(reason: reason, partial: partial)
            }
        }
    }

    /// Moves the unfinished line to the front, doubling the buffer if it is already full.
    private mutating func compactAndGrow() {
        if start > 0 {
            let pending = end - start
            if pending > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            }
            scanFrom -= start
            end = pending
            start = 0
        }
        if end == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = grown
        }
    }
}
