import Foundation

/// The SHA-256 of a byte stream, computed on a thread of its own: ``update(_:)`` copies the bytes
/// into one of a few fixed buffers and returns, and the thread hashes the buffers in order
/// (``SHA256Hasher``). For a reader whose own thread is the limit: the preprocess map's calling
/// thread reads and splits every input line, and hashing each chunk as it read it took a third of
/// that thread's time (docs/scale.md, "Input hashing beside the read"). Memory is `buffers` ×
/// `bufferBytes`, whatever the stream's length.
package final class BackgroundSHA256: @unchecked Sendable {
    private let condition = NSCondition()
    private let bufferBytes: Int
    /// Buffers free to fill, and filled buffers (with their byte counts) waiting to be hashed, in order.
    private var free: [UnsafeMutableRawBufferPointer]
    private var filled: [(buffer: UnsafeMutableRawBufferPointer, count: Int)] = []
    /// Set by ``finalize()`` or ``abandon()``: the thread ends once `filled` is empty.
    private var ended = false
    private var digest: SHA256Hasher.Digest?

    /// Starts the hashing thread with `buffers` buffers of `bufferBytes` bytes each; it goes on
    /// from `hasher` (the bytes it has hashed come first).
    package init(bufferBytes: Int, buffers: Int = 4, continuing hasher: SHA256Hasher = SHA256Hasher()) {
        self.bufferBytes = max(1, bufferBytes)
        free = (0..<max(1, buffers)).map { _ in .allocate(byteCount: max(1, bufferBytes), alignment: 64) }
        // The thread holds the hasher until it ends, so `deinit` never runs beside it.
        Thread { [self] in hashUntilEnded(hasher) }.start()
    }

    deinit {
        for buffer in free { buffer.deallocate() }
        for (buffer, _) in filled { buffer.deallocate() }
    }

    /// Feeds more message bytes: copied, then hashed on the thread (waits while every buffer is
    /// filled and not yet hashed).
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            condition.lock()
            while free.isEmpty { condition.wait() }
            let buffer = free.removeLast()
            condition.unlock()
            let count = min(bufferBytes, bytes.count - offset)
            buffer.baseAddress.unsafelyUnwrapped.copyMemory(from: base + offset, byteCount: count)
            condition.lock()
            filled.append((buffer, count))
            condition.broadcast()
            condition.unlock()
            offset += count
        }
    }

    /// Waits until every byte fed is hashed and returns the digest; the hasher is spent afterwards.
    package func finalize() -> SHA256Hasher.Digest {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        condition.broadcast()
        while true {
            if let digest { return digest }
            condition.wait()
        }
    }

    /// Ends the thread without waiting for it (a stream given up before its end).
    package func abandon() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    private func hashUntilEnded(_ start: SHA256Hasher) {
        var hasher = start
        condition.lock()
        while true {
            while filled.isEmpty && !ended { condition.wait() }
            guard !filled.isEmpty else { break }
            let (buffer, count) = filled.removeFirst()
            condition.unlock()
            hasher.update(UnsafeBufferPointer(start: buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
            condition.lock()
            free.append(buffer)
            condition.broadcast()
        }
        digest = hasher.finalize()
        condition.broadcast()
        condition.unlock()
    }
}
