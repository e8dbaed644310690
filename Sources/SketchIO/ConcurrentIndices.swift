import Foundation

/// Work spread over threads by index: the one loop for "each of these on up to N threads".
package enum ConcurrentIndices {
    /// Runs `body` once for each index in `0..<count`, on up to `threads` threads (indices dealt
    /// round-robin); with one thread, in order on the calling thread. Returns when every call has.
    package static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
        let lanes = max(1, min(threads, count))
        guard lanes > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: count, by: lanes) { body(index) }
        }
    }
}
