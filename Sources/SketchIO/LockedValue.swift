import Foundation

/// A value shared between threads, reached only under its lock.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Takes the lock for a `fork()` about to happen (a `pthread_atfork` prepare handler), so that
    /// the child is not made while another thread, which the child will not have, holds it;
    /// ``unlockAfterFork()`` releases it in the parent and in the child.
    package func lockForFork() { lock.lock() }

    /// Releases the lock ``lockForFork()`` took (the `pthread_atfork` parent and child handlers).
    package func unlockAfterFork() { lock.unlock() }

    /// Runs `body` with the value and keeps the lock held for good: every later caller waits
    /// until the process exits. For a process's last act (removing its temporary files on a signal).
    package func withLockForever<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        return try body(&value)
    }
}
